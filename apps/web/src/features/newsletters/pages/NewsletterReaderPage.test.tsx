// @vitest-environment happy-dom
import type { NewsletterMessage } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { MESSAGE_ID, stubApi, testMessage } from '../test-newsletters';
import { NewsletterReaderPage } from './NewsletterReaderPage';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HTML_URL = `/api/newsletters/messages/${MESSAGE_ID}/html?expires=1&signature=s`;

function message(overrides: Partial<NewsletterMessage> = {}): NewsletterMessage {
  return {
    ...testMessage({ read: true }),
    recipient: 'ada@digest.test',
    replyTo: null,
    sentAt: '2026-11-25T08:59:00.000Z',
    sizeBytes: 2048,
    authentication: {
      spf: { result: 'pass', domain: 'letters.example' },
      dkim: { result: 'pass', domain: 'example.com' },
      dmarc: { result: 'none', domain: null },
    },
    text: 'Three things worth reading.',
    hasHtml: true,
    htmlUrl: HTML_URL,
    ...overrides,
  };
}

/** The reader as a deep link opens it: `/newsletters/{messageId}`. */
function openReader() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/newsletters/${MESSAGE_ID}`]}>
        <Routes>
          <Route path="/newsletters/:messageId" element={<NewsletterReaderPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the reader (/newsletters/{messageId})', () => {
  it('shows subject, sender, the checks plainly, and the HTML in a sandboxed frame from htmlUrl', async () => {
    const calls = stubApi(() => ({ body: message() }));
    openReader();
    expect(await screen.findByRole('heading', { level: 1, name: 'Letters Weekly #1' })).toBeTruthy();
    expect(calls[0]).toBe(`GET /api/newsletters/messages/${MESSAGE_ID}`);
    expect(screen.getByText('Letters Weekly <news@letters.example>')).toBeTruthy();
    const checks = screen.getByRole('list', { name: 'Sender authentication' });
    expect([...checks.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'SPF pass (letters.example)',
      'DKIM pass (example.com)',
      'DMARC none',
    ]);
    const frame = screen.getByTitle('Message: Letters Weekly #1');
    expect(frame.getAttribute('src')).toBe(HTML_URL);
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
  });

  it('shows the text when there is no HTML', async () => {
    stubApi(() => ({ body: message({ hasHtml: false, htmlUrl: null }) }));
    openReader();
    expect(await screen.findByText('Three things worth reading.')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('says when the message is not in the mailbox (deleted, or another user’s)', async () => {
    stubApi(() => ({
      status: 404,
      body: { message: 'No such message in your mailbox.', code: 'NEWSLETTER_MESSAGE_NOT_FOUND' },
    }));
    openReader();
    expect(await screen.findByRole('heading', { level: 1, name: 'Message not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Newsletters' }).getAttribute('href')).toBe('/newsletters');
  });
});
