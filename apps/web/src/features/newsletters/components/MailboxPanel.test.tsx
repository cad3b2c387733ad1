// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { renderNewsletters, testMailbox } from '../test-newsletters';
import { FULL_TEXT, MailboxPanel, NO_USERNAME_TEXT, NOT_RECEIVING_TEXT } from './MailboxPanel';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

describe('the address and Copy', () => {
  it('copies the address to the clipboard and confirms it (button and toast)', async () => {
    const writeText = vi.fn(async () => undefined);
    stubClipboard(writeText);
    renderNewsletters(<MailboxPanel mailbox={testMailbox()} />);
    expect(screen.getByText('ada@digest.test')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied address' })).toBeTruthy());
    expect(writeText).toHaveBeenCalledWith('ada@digest.test');
    expect(notifySuccess).toHaveBeenCalledWith('Copied ada@digest.test');
  });

  it('says so when the clipboard refuses, and the address stays on the page to select', async () => {
    stubClipboard(async () => {
      throw new Error('denied');
    });
    renderNewsletters(<MailboxPanel mailbox={testMailbox()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith(
        'The address could not be copied: select it and copy it yourself.',
      ),
    );
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeTruthy();
  });

  it('tells a user without a username to pick one in Edit profile, with no address to copy', () => {
    renderNewsletters(<MailboxPanel mailbox={testMailbox({ address: null })} />);
    expect(screen.getByText(NO_USERNAME_TEXT, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit profile' }).getAttribute('href')).toBe('/editProfile');
    expect(screen.queryByRole('button', { name: 'Copy address' })).toBeNull();
  });
});

describe('quota and receiving', () => {
  it('shows the quota used, and no notice while there is room and mail is received', () => {
    renderNewsletters(<MailboxPanel mailbox={testMailbox()} />);
    expect(screen.getByText('3 MB of 200 MB used')).toBeTruthy();
    expect(screen.queryByText(FULL_TEXT)).toBeNull();
    expect(screen.queryByText(NOT_RECEIVING_TEXT)).toBeNull();
  });

  it('says a full mailbox refuses new mail until messages are deleted', () => {
    renderNewsletters(<MailboxPanel mailbox={testMailbox({ usedBytes: 200 * 1024 * 1024, full: true })} />);
    expect(screen.getByRole('alert').textContent).toBe(FULL_TEXT);
  });

  it('says this server does not receive mail yet when the inbound role is not configured', () => {
    renderNewsletters(<MailboxPanel mailbox={testMailbox({ receiving: false })} />);
    expect(screen.getByText(NOT_RECEIVING_TEXT)).toBeTruthy();
  });
});
