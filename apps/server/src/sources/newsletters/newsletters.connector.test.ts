import { sourceSchema } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import type { NewsletterQuery, StoredNewsletter } from '#server/sources/connector';
import { newslettersConnector, WHOLE_ISSUES_MAX_BYTES } from './newsletters.connector';

// The mailbox is a port (modules/newsletters reads the real tables, tested there); here it answers
// fixed messages and records what it was asked.
function mailbox(messages: StoredNewsletter[]) {
  const asked: NewsletterQuery[] = [];
  const connector = newslettersConnector({
    appUrl: 'https://digest.example',
    newsletters: {
      latest: async (query) => {
        asked.push(query);
        return messages.slice(0, query.limit);
      },
    },
  });
  return { connector, asked };
}

const message = (index: number, html: string | null): StoredNewsletter => ({
  messageId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  subject: `Issue ${index}`,
  senderName: 'Letters',
  fromAddress: 'news@letters.example',
  receivedAt: new Date('2026-11-21T10:00:00Z'),
  excerpt: `Excerpt ${index}`,
  html,
  text: `Text ${index}`,
});

const source = (settings: object = {}) => {
  const parsed = sourceSchema.parse({ type: 'NEWSLETTERS', ...settings });
  if (parsed.type !== 'NEWSLETTERS') throw new Error('not a newsletters source');
  return parsed;
};

const context = { userId: 'user-1', timezone: 'UTC', locale: 'en-US' };

describe('the Newsletters connector', () => {
  it('asks for the owner’s chosen senders, the count, this digest, and a body only for whole issues', async () => {
    const { connector, asked } = mailbox([]);
    await connector.fetchContent(source({ count: 3 }), { ...context, digestId: 'digest-1' });
    await connector.fetchContent(source({ layout: 'full' }), context);
    expect(asked).toEqual([
      { userId: 'user-1', senders: 'all', limit: 3, digestId: 'digest-1', withBody: false },
      { userId: 'user-1', senders: 'all', limit: 5, digestId: undefined, withBody: true },
    ]);
  });

  it('links each newsletter to its page in the app', async () => {
    const { connector } = mailbox([message(1, '<p>One</p>')]);
    const { items } = await connector.fetchContent(source(), context);
    expect(items[0]?.url).toBe('https://digest.example/newsletters/00000000-0000-4000-8000-000000000001');
  });

  it('keeps whole issues, newest first, while they fit in the mail; a later one shows its excerpt and link', async () => {
    const half = `<p>${'x'.repeat(WHOLE_ISSUES_MAX_BYTES / 2 - 10)}</p>`;
    const { connector } = mailbox([
      message(1, half),
      message(2, `<p>${'y'.repeat(WHOLE_ISSUES_MAX_BYTES)}</p>`),
      message(3, half),
      message(4, half),
    ]);
    const { items } = await connector.fetchContent(source({ layout: 'full' }), context);
    expect(items.map((item) => item.tooLong)).toEqual([false, true, false, true]);
    expect(items[1]).toMatchObject({ html: '', excerpt: 'Excerpt 2' });
    const kept = items.reduce((sum, item) => sum + Buffer.byteLength(item.html), 0);
    expect(kept).toBeLessThanOrEqual(WHOLE_ISSUES_MAX_BYTES);
  });
});
