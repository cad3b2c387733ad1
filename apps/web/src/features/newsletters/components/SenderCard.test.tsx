// @vitest-environment happy-dom
import type { NewsletterUnsubscribeResponse } from '@digest/contracts';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderNewsletters, SENDER_ID, stubApi, testSender } from '../test-newsletters';
import { SenderCard } from './SenderCard';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function unsubscribeAnswering(answer: Omit<NewsletterUnsubscribeResponse, 'sender'>) {
  return stubApi((method, path) =>
    method === 'POST' && path.endsWith('/unsubscribe')
      ? { body: { ...answer, sender: testSender() } }
      : { body: {} },
  );
}

describe('a sender’s card', () => {
  it('shows its name, address, counts, state and first seen', () => {
    renderNewsletters(<SenderCard sender={testSender()} />);
    expect(screen.getByRole('heading', { name: 'Letters Weekly' })).toBeTruthy();
    expect(screen.getByText('news@letters.example')).toBeTruthy();
    expect(screen.getByText(/3 received · 2 stored · 1 unread · first seen/)).toBeTruthy();
    expect(screen.getByText('In digests')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Include in digests' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('Mute and Block PUT the state', async () => {
    const calls = stubApi(() => ({ body: { sender: testSender({ state: 'muted' }) } }));
    renderNewsletters(<SenderCard sender={testSender()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    await waitFor(() => expect(calls).toContain(`PUT /api/newsletters/senders/${SENDER_ID}`));
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(init?.body).toBe(JSON.stringify({ state: 'muted' }));
  });

  it('Delete all asks first, then deletes', async () => {
    const calls = stubApi(() => ({ body: { sender: testSender({ storedCount: 0 }) } }));
    renderNewsletters(<SenderCard sender={testSender()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Delete all 2 messages from Letters Weekly?',
    });
    expect(calls).toEqual([]);
    fireEvent.click(dialog.querySelector('button:last-child') as HTMLButtonElement);
    await waitFor(() => expect(calls).toContain(`DELETE /api/newsletters/senders/${SENDER_ID}`));
  });
});

describe('Unsubscribe shows its outcome', () => {
  it('sent: "Unsubscribed" with what happened', async () => {
    unsubscribeAnswering({
      outcome: 'sent',
      detail: 'letters.example accepted the one-click unsubscribe.',
      link: null,
    });
    renderNewsletters(<SenderCard sender={testSender()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Unsubscribed. letters.example accepted the one-click unsubscribe.',
      ),
    );
  });

  it('failed: the detail', async () => {
    unsubscribeAnswering({ outcome: 'failed', detail: 'letters.example answered HTTP 500.', link: null });
    renderNewsletters(<SenderCard sender={testSender()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Unsubscribe failed. letters.example answered HTTP 500.',
      ),
    );
  });

  it('open_link: a link for the user to open themselves, in a new tab', async () => {
    unsubscribeAnswering({
      outcome: 'open_link',
      detail: 'This sender unsubscribes only on its own web page: open the link to finish.',
      link: 'https://letters.example/manage',
    });
    renderNewsletters(<SenderCard sender={testSender()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    const link = await screen.findByRole('link', { name: /Open the unsubscribe page/ });
    expect(link.getAttribute('href')).toBe('https://letters.example/manage');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('without a way to act, links the sender’s own page instead of the button', () => {
    renderNewsletters(
      <SenderCard
        sender={testSender({ canUnsubscribe: false, unsubscribePage: 'https://letters.example/prefs' })}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
    expect(screen.getByRole('link', { name: /Unsubscribe on the sender’s page/ }).getAttribute('href')).toBe(
      'https://letters.example/prefs',
    );
  });

  it('shows the last outcome stored on the sender', () => {
    renderNewsletters(
      <SenderCard
        sender={testSender({
          state: 'unsubscribed',
          unsubscribe: {
            outcome: 'failed',
            detail: 'letters.example answered HTTP 500.',
            at: '2026-11-24T10:00:00.000Z',
          },
        })}
      />,
    );
    expect(screen.getByText(/^Unsubscribe failed on .*: letters.example answered HTTP 500.$/)).toBeTruthy();
  });
});
