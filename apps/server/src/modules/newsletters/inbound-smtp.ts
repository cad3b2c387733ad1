import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import type { Logger } from '#server/platform/logger';
import { findMailboxOwner, isSenderBlocked, mailboxUsedBytes } from './inbound.repository';
import {
  type ClassifyMessage,
  classifyAsNewsletter,
  type ParsedInboundMessage,
  parseInboundMessage,
  UnacceptableMessageError,
} from './inbound-message';
import { authenticateMessage, type DNSResolver } from './mail-authentication';
import { storeInboundMessage } from './mailbox.repository';

export interface InboundSmtpDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** MAIL_DOMAIN: the only domain mail is accepted for (no relaying). */
  mailDomain: string;
  /** NEWSLETTER_QUOTA_MB in bytes. */
  quotaBytes: number;
  /** INBOUND_MAX_MESSAGE_MB in bytes: announced (SIZE) and enforced while the message streams in. */
  maxMessageBytes: number;
  /** INBOUND_MAX_CLIENTS: sessions open at once; more are answered 421. */
  maxClients: number;
  /** INBOUND_CONNECTIONS_PER_MINUTE: connections one client address may open a minute; more are answered 421. */
  connectionsPerMinute: number;
  /** INBOUND_TLS_CERT_FILE / INBOUND_TLS_KEY_FILE, read at start: STARTTLS is offered only with them. */
  tls?: { cert: Buffer; key: Buffer };
  /** DNS for SPF, DKIM and DMARC: real DNS with a timeout in production, a fake one in tests. */
  resolver: DNSResolver;
  /** Decides a message's kind before it is stored; everything is a newsletter by default. */
  classify?: ClassifyMessage;
  /** An idle session is closed after this long. */
  socketTimeoutMs?: number;
  /** How long a stop waits for sessions under way before it closes them, unless `close` says otherwise. */
  closeTimeoutMs?: number;
}

export interface InboundSmtpServer {
  /** Starts listening; answers the port (useful with port 0). */
  listen(port: number, host: string): Promise<number>;
  /**
   * Stops accepting connections, lets sessions under way finish (up to `timeoutMs`, else closeTimeoutMs),
   * then closes the rest.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** One accepted recipient of the transaction under way. */
interface Recipient {
  userId: string;
  address: string;
  tag: string | null;
}

/** An SMTP reply: smtp-server answers an error with its `responseCode` and message. */
function reply(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

const TEMPORARY_FAILURE = () =>
  reply(451, '4.3.0 Temporary failure storing the message, please try again later');

/** `Local+Tag@Domain` → the lower-cased username, the tag as written, and the domain. */
export function mailboxOf(
  address: string,
): { username: string; tag: string | null; domain: string } | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  const plus = local.indexOf('+');
  const username = (plus === -1 ? local : local.slice(0, plus)).toLowerCase();
  const tag = plus === -1 ? null : local.slice(plus + 1) || null;
  return username ? { username, tag, domain } : undefined;
}

/** Connections per client address in a sliding minute, forgotten once a minute has passed. */
function createConnectionRate(perMinute: number, clock: Clock) {
  const seen = new Map<string, number[]>();
  return (ip: string): boolean => {
    const now = clock.now().getTime();
    const recent = (seen.get(ip) ?? []).filter((at) => at > now - 60_000);
    if (seen.size > 10_000) {
      for (const [key, times] of seen) if (times.every((at) => at <= now - 60_000)) seen.delete(key);
    }
    if (recent.length >= perMinute) {
      seen.set(ip, recent);
      return false;
    }
    recent.push(now);
    seen.set(ip, recent);
    return true;
  };
}

/**
 * Reads the DATA stream up to `limit` bytes; past it the rest is read and thrown away, so an oversized
 * message costs at most `limit` bytes of memory whatever its size.
 */
async function readLimited(stream: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  let over = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (over) continue;
    length += chunk.length;
    if (length > limit) {
      over = true;
      chunks.length = 0;
    } else chunks.push(chunk);
  }
  return over ? undefined : Buffer.concat(chunks, length);
}

/**
 * The newsletter mailbox's SMTP server (the `inbound` role). RCPT is accepted only for a mailbox of
 * MAIL_DOMAIN with room left and a sender not blocked by its owner; the message is read with a size
 * bound, parsed, sanitised, checked (SPF, DKIM, DMARC) and stored, and 250 is answered only once it is
 * committed: a storage failure answers 451 so the sender retries, and the retry (same Message-ID, or the
 * same content without one) is stored once.
 */
export function createInboundSmtpServer(deps: InboundSmtpDeps): InboundSmtpServer {
  const { db, clock, logger } = deps;
  const mailDomain = deps.mailDomain.toLowerCase();
  const classify = deps.classify ?? classifyAsNewsletter;
  const recipients = new WeakMap<SMTPServerAddress, Recipient>();
  const allowConnection = createConnectionRate(deps.connectionsPerMinute, clock);

  const acceptRecipient = async (address: SMTPServerAddress, session: SMTPServerSession) => {
    const mailbox = mailboxOf(address.address);
    if (!mailbox || mailbox.domain !== mailDomain) {
      throw reply(550, '5.7.1 Relaying denied: this server accepts mail only for its own mailboxes');
    }
    const userId = await findMailboxOwner(db, mailbox.username, clock.now());
    if (!userId) throw reply(550, '5.1.1 No such mailbox here');
    if ((await mailboxUsedBytes(db, userId)) >= deps.quotaBytes) {
      throw reply(452, '4.2.2 Mailbox full, please try again later');
    }
    const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    if (envelopeFrom && (await isSenderBlocked(db, userId, { address: envelopeFrom, listId: null }))) {
      throw reply(550, '5.7.1 The recipient does not accept mail from this sender');
    }
    recipients.set(address, {
      userId,
      address: `${address.address.slice(0, address.address.lastIndexOf('@')).toLowerCase()}@${mailDomain}`,
      tag: mailbox.tag,
    });
  };

  const storeMessage = async (raw: Buffer, session: SMTPServerSession) => {
    const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    let parsed: ParsedInboundMessage;
    try {
      parsed = await parseInboundMessage(raw, { envelopeFrom, receivedAt: clock.now() });
    } catch (error) {
      if (error instanceof UnacceptableMessageError) throw reply(554, `5.6.0 ${error.message}`);
      logger.warn({ err: error, session: session.id }, 'an inbound message could not be parsed');
      throw reply(554, '5.6.0 The message could not be parsed');
    }
    const [authentication, classification] = await Promise.all([
      authenticateMessage(
        raw,
        { ip: session.remoteAddress, helo: session.hostNameAppearsAs ?? '', envelopeFrom },
        { resolver: deps.resolver, mta: mailDomain },
      ),
      classify(parsed),
    ]);
    let stored = 0;
    for (const address of session.envelope.rcptTo) {
      const recipient = recipients.get(address);
      if (!recipient) continue;
      try {
        // Blocked again by what the message says of itself: a list by its List-Id, a sender by its From.
        if (await isSenderBlocked(db, recipient.userId, parsed.sender)) continue;
        const result = await storeInboundMessage(db, {
          userId: recipient.userId,
          sender: parsed.sender,
          message: {
            ...parsed.message,
            ...classification,
            recipient: recipient.address,
            recipientTag: recipient.tag,
            authentication,
          },
        });
        stored += 1;
        logger.info(
          { userId: recipient.userId, messageId: result.messageId, stored: result.stored, bytes: raw.length },
          'newsletter received',
        );
      } catch (error) {
        logger.error({ err: error, session: session.id }, 'storing an inbound message failed: answering 451');
        throw TEMPORARY_FAILURE();
      }
    }
    if (stored === 0) throw reply(550, '5.7.1 The recipient does not accept mail from this sender');
  };

  const server = new SMTPServer({
    name: mailDomain,
    banner: 'Digest newsletter mailbox',
    logger: false,
    // Mail is received, never relayed: no AUTH; STARTTLS only with the operator's certificate.
    disabledCommands: deps.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(deps.tls ? { key: deps.tls.key, cert: deps.tls.cert } : {}),
    authOptional: true,
    size: deps.maxMessageBytes,
    maxClients: deps.maxClients,
    socketTimeout: deps.socketTimeoutMs ?? 60_000,
    closeTimeout: deps.closeTimeoutMs ?? 10_000,
    // A reverse lookup per connection costs a DNS round trip and tells nothing the checks need.
    disableReverseLookup: true,
    onConnect(session, callback) {
      if (!allowConnection(session.remoteAddress)) {
        return callback(reply(421, '4.7.0 Too many connections from your address, try again later'));
      }
      callback();
    },
    onRcptTo(address, session, callback) {
      acceptRecipient(address, session).then(
        () => callback(),
        (error: Error & { responseCode?: number }) => {
          if (error.responseCode) return callback(error);
          logger.error(
            { err: error, session: session.id },
            'checking an inbound recipient failed: answering 451',
          );
          callback(TEMPORARY_FAILURE());
        },
      );
    },
    onData(stream, session, callback) {
      readLimited(stream, deps.maxMessageBytes)
        .then(async (raw) => {
          if (!raw || stream.sizeExceeded) {
            throw reply(552, `5.3.4 Message too big: at most ${deps.maxMessageBytes} bytes`);
          }
          await storeMessage(raw, session);
        })
        .then(
          () => callback(null, '2.0.0 Message stored'),
          (error: Error & { responseCode?: number }) => {
            if (error.responseCode) return callback(error);
            logger.error(
              { err: error, session: session.id },
              'receiving an inbound message failed: answering 451',
            );
            callback(TEMPORARY_FAILURE());
          },
        );
    },
  });
  server.on('error', (error) => logger.warn({ err: error }, 'inbound SMTP connection error'));

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(port, host, () => {
          server.server.off('error', reject);
          resolve((server.server.address() as AddressInfo).port);
        });
      });
    },
    close(timeoutMs) {
      // smtp-server reads it when closing; 0 would mean its own default (30 s), hence at least 1 ms.
      if (timeoutMs !== undefined) server.options.closeTimeout = Math.max(1, timeoutMs);
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
