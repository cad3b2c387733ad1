// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGE_ID, renderNewsletters, stubApi, testMessage } from '../test-newsletters';
import { PinnedList } from './PinnedList';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const CONFIRM_URL = 'https://techweekly.example/subscribe/confirm?id=3c';

describe('pinned confirmations', () => {
  it('shows "Confirm your subscription to …" with the confirm link as a button opening a new tab', () => {
    renderNewsletters(
      <PinnedList
        pinned={[testMessage({ kind: 'confirmation', senderName: 'Tech Weekly', confirmUrl: CONFIRM_URL })]}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Confirm your subscription to Tech Weekly' })).toBeTruthy();
    const confirm = screen.getByRole('link', { name: 'Confirm subscription (opens in a new tab)' });
    expect(confirm.getAttribute('href')).toBe(CONFIRM_URL);
    expect(confirm.getAttribute('target')).toBe('_blank');
    expect(confirm.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('offers Done once the link has been opened, which dismisses (unpins) the message', async () => {
    const calls = stubApi(() => ({
      body: { message: testMessage({ kind: 'confirmation', resolved: true }) },
    }));
    renderNewsletters(
      <PinnedList pinned={[testMessage({ kind: 'confirmation', confirmUrl: CONFIRM_URL })]} />,
    );
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    const confirm = screen.getByRole('link', { name: /Confirm subscription/ });
    // The test opens nothing: happy-dom would follow the link (a new window and a request) otherwise.
    confirm.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(confirm);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(calls).toContain(`POST /api/newsletters/messages/${MESSAGE_ID}/dismiss`));
  });

  it('shows a forwarding code with Copy, and the link Gmail sent when there is one', () => {
    renderNewsletters(
      <PinnedList
        pinned={[
          testMessage({
            kind: 'forwarding_code',
            senderName: 'Gmail Team',
            forwardingCode: '618309214',
            confirmUrl: 'https://mail-settings.google.com/mail/vf-1',
          }),
        ]}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Forwarding code from Gmail Team' })).toBeTruthy();
    expect(screen.getByText('618309214')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Confirm forwarding/ }).getAttribute('href')).toBe(
      'https://mail-settings.google.com/mail/vf-1',
    );
  });
});

describe('Reply to confirm', () => {
  const pinned = [testMessage({ kind: 'reply_to_confirm', senderName: 'Sam' })];

  it('POSTs the reply', async () => {
    const calls = stubApi(() => ({ body: { message: { ...pinned[0], resolved: true } } }));
    renderNewsletters(<PinnedList pinned={pinned} />);
    expect(screen.getByRole('heading', { name: 'Reply to confirm your subscription to Sam' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reply to confirm' }));
    await waitFor(() => expect(calls).toContain(`POST /api/newsletters/messages/${MESSAGE_ID}/reply`));
  });

  it.each([
    [502, 'REPLY_NOT_SENT', 'The reply could not be sent. Please try again in a few minutes.'],
    [409, 'ALREADY_RESOLVED', 'This message was already replied to or dismissed.'],
  ])('shows the server’s refusal (%i %s) next to the button', async (status, code, message) => {
    stubApi((method) => (method === 'POST' ? { status, body: { message, code } } : { body: {} }));
    renderNewsletters(<PinnedList pinned={pinned} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reply to confirm' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(message));
  });
});
