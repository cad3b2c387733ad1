/**
 * SMTP sink for the benches: a real SMTP server (smtp-server) that accepts every message, reads only its
 * header block, and remembers per message its Message-ID, List-Id, envelope recipients and arrival time.
 * It can be stopped and started again on the same port (the outage run), and it counts duplicates: a
 * Message-ID received twice, or one List-Id delivered twice to the same recipient (in a burst each
 * digest has one slot, so a second copy for the same list and recipient is a second issue or a resend).
 *
 *   npx tsx bench/smtp-sink.ts            listens on SMTP_SINK_PORT (default 2525), prints counts on SIGINT
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  messageId: string;
  listId: string;
  recipients: string[];
  /** Date.now() when the message's data was fully received. */
  arrivedAt: number;
}

export interface SinkCounts {
  messages: number;
  /** Distinct Message-IDs. */
  distinctMessageIds: number;
  /** Messages whose Message-ID had been received before. */
  duplicateMessageIds: number;
  /** (List-Id, recipient) pairs received more than once, counted once per extra copy. */
  duplicateListRecipients: number;
  /** Messages per recipient address. */
  perRecipient: Map<string, number>;
}

export interface SmtpSink {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  readonly url: string;
  readonly messages: readonly SinkMessage[];
  counts(): SinkCounts;
  /** Stops listening (new connections are refused); open sessions are closed. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/** Unfolds the header block (RFC 5322 §2.2.3) and answers the value of `name`, '' when absent. */
export function headerValue(headerBlock: string, name: string): string {
  const unfolded = headerBlock.replace(/\r?\n[ \t]+/g, ' ');
  const prefix = `${name.toLowerCase()}:`;
  for (const line of unfolded.split(/\r?\n/)) {
    if (line.toLowerCase().startsWith(prefix)) return line.slice(prefix.length).trim();
  }
  return '';
}

/** The message's header block: everything before the first empty line. */
function headerBlockOf(raw: Buffer): string {
  const end = raw.indexOf('\r\n\r\n');
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

export function countMessages(messages: readonly SinkMessage[]): SinkCounts {
  const ids = new Set<string>();
  const pairs = new Set<string>();
  const perRecipient = new Map<string, number>();
  let duplicateMessageIds = 0;
  let duplicateListRecipients = 0;
  for (const message of messages) {
    if (ids.has(message.messageId)) duplicateMessageIds += 1;
    ids.add(message.messageId);
    for (const recipient of message.recipients) {
      const pair = `${message.listId}\n${recipient}`;
      if (pairs.has(pair)) duplicateListRecipients += 1;
      pairs.add(pair);
      perRecipient.set(recipient, (perRecipient.get(recipient) ?? 0) + 1);
    }
  }
  return {
    messages: messages.length,
    distinctMessageIds: ids.size,
    duplicateMessageIds,
    duplicateListRecipients,
    perRecipient,
  };
}

function createServer(messages: SinkMessage[]): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // The burst sends from many pooled connections at once.
    maxClients: 1000,
    // A stop is an outage: open sessions get 421 almost at once instead of finishing for 30 s.
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const headers = headerBlockOf(Buffer.concat(chunks));
        messages.push({
          messageId: headerValue(headers, 'Message-ID'),
          listId: headerValue(headers, 'List-Id'),
          recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          arrivedAt: Date.now(),
        });
        callback();
      });
    },
  });
}

function listen(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      // A client dying mid-session (a SIGKILLed worker) surfaces here as ECONNRESET: the message was not
      // accepted, which is what the sink should record; unhandled, the error would end the process.
      server.on('error', () => {});
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

export async function startSmtpSink(options: { port?: number; host?: string } = {}): Promise<SmtpSink> {
  const host = options.host ?? '127.0.0.1';
  const messages: SinkMessage[] = [];
  let server: SMTPServer | undefined = createServer(messages);
  const port = await listen(server, options.port ?? 0, host);
  return {
    port,
    url: `smtp://${host}:${port}`,
    messages,
    counts: () => countMessages(messages),
    async stop() {
      const running = server;
      server = undefined;
      if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async start() {
      if (server) return;
      server = createServer(messages);
      await listen(server, port, host);
    },
  };
}

async function main() {
  const sink = await startSmtpSink({ port: Number(process.env.SMTP_SINK_PORT ?? 2525) });
  console.log(`SMTP sink on ${sink.url}`);
  process.on('SIGINT', async () => {
    const counts = sink.counts();
    console.log(
      `messages ${counts.messages}, distinct Message-IDs ${counts.distinctMessageIds}, ` +
        `duplicate Message-IDs ${counts.duplicateMessageIds}, duplicate (List-Id, recipient) ${counts.duplicateListRecipients}, ` +
        `recipients ${counts.perRecipient.size}`,
    );
    await sink.stop();
    process.exit(0);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
