/** Test support for the newsletters module: messages put straight into a mailbox, as the inbound server would. */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { Database } from '#server/db/client';
import { systemClock } from '#server/platform/clock';
import type { InboundSmtpDeps } from './inbound-smtp';
import { type InboundMessageInput, storeInboundMessage } from './mailbox.repository';

/** The mail domain of the test inbound servers. */
export const TEST_MAIL_DOMAIN = 'digest.test';

/**
 * An inbound SMTP server's dependencies for a test: a 1 MB message limit (so size tests stay small), limits
 * high enough for load tests, a DNS where nothing exists, and a quick stop.
 */
export function testInboundSmtpDeps(db: Database, overrides: Partial<InboundSmtpDeps> = {}): InboundSmtpDeps {
  return {
    db,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    mailDomain: TEST_MAIL_DOMAIN,
    quotaBytes: 200 * 1024 * 1024,
    maxMessageBytes: 1024 * 1024,
    maxClients: 200,
    connectionsPerMinute: 10_000,
    resolver: async (name) => {
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    },
    closeTimeoutMs: 1_000,
    ...overrides,
  };
}

export interface TestNewsletter {
  fromAddress?: string;
  fromName?: string;
  listId?: string | null;
  subject?: string;
  html?: string | null;
  text?: string;
  internetMessageId?: string;
  receivedAt?: Date;
  kind?: InboundMessageInput['message']['kind'];
  confirmUrl?: string | null;
  forwardingCode?: string | null;
  unsubscribeUrl?: string | null;
  unsubscribeMailto?: string | null;
  unsubscribeOneClick?: boolean;
}

/** One newsletter stored in `userId`'s mailbox as if it had arrived by SMTP (passing SPF, DKIM and DMARC). */
export function receiveTestNewsletter(db: Database, userId: string, newsletter: TestNewsletter = {}) {
  const fromAddress = newsletter.fromAddress ?? 'news@letters.example';
  const text = newsletter.text ?? 'This week: three things worth reading.';
  const receivedAt = newsletter.receivedAt ?? new Date();
  const domain = fromAddress.split('@')[1] ?? null;
  const pass = { result: 'pass', domain };
  return storeInboundMessage(db, {
    userId,
    sender: {
      address: fromAddress,
      listId: newsletter.listId ?? null,
      name: newsletter.fromName ?? 'Letters Weekly',
      unsubscribeUrl: newsletter.unsubscribeUrl ?? null,
      unsubscribeMailto: newsletter.unsubscribeMailto ?? null,
      unsubscribeOneClick: newsletter.unsubscribeOneClick ?? false,
    },
    message: {
      internetMessageId: newsletter.internetMessageId ?? `${randomUUID()}@letters.example`,
      recipient: 'reader@digest.test',
      recipientTag: null,
      envelopeFrom: fromAddress,
      fromAddress,
      fromName: newsletter.fromName ?? 'Letters Weekly',
      replyTo: null,
      subject: newsletter.subject ?? 'Letters Weekly #1',
      sentAt: receivedAt,
      receivedAt,
      html: newsletter.html === undefined ? `<p>${text}</p>` : newsletter.html,
      text,
      excerpt: text.slice(0, 200),
      sizeBytes: Buffer.byteLength(text) + 500,
      authentication: { spf: pass, dkim: pass, dmarc: pass },
      kind: newsletter.kind ?? 'newsletter',
      confirmUrl: newsletter.confirmUrl ?? null,
      forwardingCode: newsletter.forwardingCode ?? null,
    },
  });
}
