import type { NewsletterMailbox, NewsletterMessageSummary, NewsletterSender, User } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { meQueryKey } from '#web/lib/session/use-me';
import { newsletterKeys } from './api/use-newsletters';

/** Fixtures and a renderer for the newsletters feature's component tests (happy-dom, no server). */

export const SENDER_ID = '7b0c1c84-3c9f-4c51-9f49-2f1f5d1b9a01';
export const MESSAGE_ID = 'c5b7e0f4-0a51-4d7e-9a53-1d0f2c3b4a02';

export function testSender(overrides: Partial<NewsletterSender> = {}): NewsletterSender {
  return {
    senderId: SENDER_ID,
    name: 'Letters Weekly',
    address: 'news@letters.example',
    listId: 'weekly.letters.example',
    state: 'included',
    firstSeenAt: '2026-11-20T09:00:00.000Z',
    lastSeenAt: '2026-11-25T09:00:00.000Z',
    messageCount: 3,
    storedCount: 2,
    unreadCount: 1,
    canUnsubscribe: true,
    unsubscribePage: null,
    unsubscribe: null,
    ...overrides,
  };
}

export function testMessage(overrides: Partial<NewsletterMessageSummary> = {}): NewsletterMessageSummary {
  return {
    messageId: MESSAGE_ID,
    senderId: SENDER_ID,
    senderName: 'Letters Weekly',
    fromAddress: 'news@letters.example',
    subject: 'Letters Weekly #1',
    excerpt: 'Three things worth reading.',
    receivedAt: '2026-11-25T09:00:00.000Z',
    read: false,
    kind: 'newsletter',
    confirmUrl: null,
    forwardingCode: null,
    resolved: false,
    ...overrides,
  };
}

export function testMailbox(overrides: Partial<NewsletterMailbox> = {}): NewsletterMailbox {
  return {
    address: 'ada@digest.test',
    receiving: true,
    usedBytes: 3 * 1024 * 1024,
    quotaBytes: 200 * 1024 * 1024,
    full: false,
    unreadCount: 1,
    senders: [testSender()],
    pinned: [],
    ...overrides,
  };
}

const testUser = { fullName: 'Ada Lovelace', username: 'ada', newsletterEmail: 'ada@digest.test' } as User;

/**
 * Renders `ui` with a query client (holding the signed-in user and, when given, the mailbox) and a router.
 * API calls reach the `fetch` stub of `stubApi`.
 */
export function renderNewsletters(ui: ReactNode, { mailbox }: { mailbox?: NewsletterMailbox } = {}) {
  const client = createQueryClient();
  client.setQueryData(meQueryKey, testUser);
  if (mailbox) client.setQueryData(newsletterKeys.mailbox(), mailbox);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/**
 * Replaces `fetch` with one that answers by `answer(method, path)`: a status and a JSON body. Returns the
 * calls made, as `METHOD /api/path?query`.
 */
export function stubApi(answer: (method: string, path: string) => { status?: number; body: unknown }) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url}`);
      const { status = 200, body } = answer(method, url);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}
