// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderNewsletters, stubApi, testMessage, testSender } from '../test-newsletters';
import { Inbox, SEARCH_DEBOUNCE_MS } from './Inbox';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const page = (messages = [testMessage()], nextCursor: string | null = null) => ({
  body: { messages, nextCursor },
});

describe('the inbox', () => {
  it('lists the messages, unread ones marked with a visible "Unread" label', async () => {
    stubApi(() =>
      page([testMessage(), testMessage({ messageId: crypto.randomUUID(), subject: 'Old one', read: true })]),
    );
    renderNewsletters(<Inbox senders={[testSender()]} />);
    const link = await screen.findByRole('link', { name: 'Letters Weekly #1' });
    expect(link.closest('article')?.textContent).toContain('Unread');
    expect(screen.getByRole('link', { name: 'Old one' }).closest('article')?.textContent).not.toContain(
      'Unread',
    );
  });

  it('sends the search as q once typing has paused, not on every key', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubApi(() => page());
    renderNewsletters(<Inbox senders={[testSender()]} />);
    await waitFor(() => expect(calls).toEqual(['GET /api/newsletters/messages']));
    const search = screen.getByRole('searchbox', { name: 'Search by sender or subject' });
    fireEvent.change(search, { target: { value: 'Let' } });
    fireEvent.change(search, { target: { value: 'Letters' } });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 50));
    await waitFor(() => expect(calls).toContain('GET /api/newsletters/messages?q=Letters'));
    expect(calls.filter((call) => call.includes('q=Let&') || call.endsWith('q=Let'))).toEqual([]);
  });

  it('filters by sender and unread', async () => {
    const calls = stubApi(() => page());
    renderNewsletters(<Inbox senders={[testSender()]} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Sender' }), {
      target: { value: testSender().senderId },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Unread only' }));
    await waitFor(() =>
      expect(calls).toContain(`GET /api/newsletters/messages?senderId=${testSender().senderId}&unread=true`),
    );
  });

  it('loads the next page by the cursor', async () => {
    const calls = stubApi((_method, path) =>
      path.includes('cursor=')
        ? page([testMessage({ messageId: crypto.randomUUID(), subject: 'Older' })])
        : page(undefined, 'c1'),
    );
    renderNewsletters(<Inbox senders={[]} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Older' })).toBeTruthy();
    expect(calls).toContain('GET /api/newsletters/messages?cursor=c1');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when there is nothing yet, and when nothing matches', async () => {
    stubApi(() => page([]));
    renderNewsletters(<Inbox senders={[]} />);
    expect(await screen.findByRole('heading', { name: 'No newsletters yet' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Unread only' }));
    expect(await screen.findByRole('heading', { name: 'No messages match' })).toBeTruthy();
  });

  it('shows the API’s message when the list cannot be loaded', async () => {
    stubApi(() => ({
      status: 400,
      body: { message: 'querystring.q: Search should have at most 200 characters', code: 'VALIDATION_ERROR' },
    }));
    renderNewsletters(<Inbox senders={[]} />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'querystring.q: Search should have at most 200 characters',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
