// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderNewsletters, stubApi, testMailbox, testMessage } from '../test-newsletters';
import { NewslettersPage } from './NewslettersPage';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Newsletters page (docs/product.md §2)', () => {
  it('is headed "{full name} Newsletters", with the address, the pinned, the inbox and the senders', async () => {
    stubApi(() => ({ body: { messages: [testMessage()], nextCursor: null } }));
    renderNewsletters(<NewslettersPage />, {
      mailbox: testMailbox({
        pinned: [testMessage({ kind: 'confirmation', confirmUrl: 'https://x.example/c' })],
      }),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Ada Lovelace Newsletters' })).toBeTruthy();
    expect(screen.getByText('1 unread')).toBeTruthy();
    for (const name of ['Your newsletter address', 'Needs you', 'Inbox', 'Senders']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy();
    }
    expect(await screen.findByRole('link', { name: 'Letters Weekly #1' })).toBeTruthy();
  });

  it('shows the API’s message when the mailbox cannot be loaded, and a way to try again', async () => {
    stubApi(() => ({
      status: 403,
      body: { message: 'Verify your e-mail address first.', code: 'FORBIDDEN' },
    }));
    renderNewsletters(<NewslettersPage />);
    expect(await screen.findByRole('heading', { name: 'Your mailbox could not be loaded' })).toBeTruthy();
    expect(screen.getByText('Verify your e-mail address first.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
