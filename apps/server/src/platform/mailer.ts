import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { createHostLimiter } from './host-limiter';
import { createMessageComposer, type MessageOptions } from './mail-message';

/**
 * Outgoing e-mail. Two transports behind one interface:
 * - `smtp` (SMTP_URL set): a small pool of connections to the configured server;
 * - `outbox` (no SMTP_URL): every message is written as an RFC 5322 `.eml` file into `DATA_DIR/outbox`
 *   and logged, so development and tests need no mail server.
 *
 * The sender is the configured `from` (MAIL_FROM), and the SMTP envelope sender is its address: callers
 * cannot set From, Sender or the envelope, so no mail is sent in someone else's name. The one exception is
 * a user's own newsletter address (`fromMailbox`, `username@MAIL_DOMAIN`) for mail the user sends
 * themselves (an unsubscribe request, a reply confirming a subscription): only an address of MAIL_DOMAIN,
 * this deployment's own, is accepted, and it is then the envelope sender too. Mail for
 * someone else (a share invitation) puts that person in `Reply-To` instead. A caller may ask for a bounce
 * token: the envelope sender becomes `<local>+b-<token>@<domain>` of that same address (VERP), so a
 * bounce or complaint coming back names the delivery it is about.
 *
 * With `dkim`, both transports sign every message (rsa-sha256, relaxed/relaxed), so the outbox files
 * show the same signature a receiver checks.
 *
 * Both transports build the whole (signed) message first, then hand it over. Over SMTP the end of DATA,
 * the final `<CRLF>.<CRLF>` after which the server owns the message, can be held back until the caller
 * says so (`SendOptions.beforeFinalDot`): a server drops a transaction whose final dot never came, so a
 * sender that dies before that point has delivered nothing and may safely send again.
 */

export interface OutgoingMail {
  to: string | string[];
  subject: string;
  html: string;
  text: string;
  /** Extra headers such as `List-Id`, `List-Unsubscribe`, `Reply-To`. Address and MIME headers are refused. */
  headers?: Record<string, string>;
  /** `<id@domain>`; generated when absent. */
  messageId?: string;
  /** Lower-case letters and digits naming what a bounce is about; it goes into the envelope sender (VERP). */
  bounceToken?: string;
  /**
   * The user's own address at MAIL_DOMAIN (`ada@digest.example`), as From and envelope sender, for mail the
   * user sends (see above). Any other domain, or a mailer without `mailDomain`, is refused.
   */
  fromMailbox?: string;
}

export interface SendOptions {
  /**
   * Awaited once the server has accepted the envelope and DATA and every byte of the message but its final
   * dot has been handed to the connection (in the outbox: once the file is written, before it gets its
   * name). The final dot goes out only after it resolves; if it rejects, the connection is closed without
   * it (the server discards the message) and `send` rejects with that error. A sender records here that
   * the message may now arrive: dying before this point, it has sent nothing.
   */
  beforeFinalDot?: () => Promise<void>;
}

export interface Mailer {
  /**
   * Sends one message. Rejects with nodemailer's error unchanged: SMTP failures keep `responseCode`
   * (4xx: try again later, 5xx: permanent) and `code` (`EENVELOPE`, `EMESSAGE`, `EAUTH`, `ECONNECTION`, …).
   */
  send(mail: OutgoingMail, options?: SendOptions): Promise<{ messageId: string }>;
  /**
   * Waits for a turn to send, one of `MAILER_MAX_CONNECTIONS`, and resolves with its release. A sender
   * that must claim its work before sending (a delivery) takes a turn first, so it claims no more at once
   * than can be sent.
   */
  waitForConnection(): Promise<() => void>;
  /** Closes pooled connections; later sends reject. */
  close(): Promise<void>;
  readonly transport: 'smtp' | 'outbox';
}

export type MailerLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`; when absent, mails go to `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
  /** Header From, e.g. `Digest <digest@example.com>`; its address is the envelope sender. */
  from: string;
  /** Signs every message when set. */
  dkim?: MailerDkim;
  /** MAIL_DOMAIN: the only domain `fromMailbox` may name. */
  mailDomain?: string;
  logger: MailerLogger;
}

/** nodemailer's single-key `dkim` option. */
export interface MailerDkim {
  /** `d=`: the domain the signature vouches for (that of MAIL_FROM unless DKIM_DOMAIN says otherwise). */
  domainName: string;
  /** `s=`: the `<selector>._domainkey.<domain>` TXT record holds the public key. */
  keySelector: string;
  /** PEM; never logged or returned. */
  privateKey: string;
}

/** Headers the mailer owns: setting them through `headers` could forge the sender or break the MIME structure. */
const RESERVED_HEADERS = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'subject',
  'message-id',
  'date',
  'return-path',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
]);

/** Pool size: enough to overlap a burst of deliveries without looking like a flood to the receiving server. */
export const MAILER_MAX_CONNECTIONS = 5;

export function createMailer(options: MailerOptions): Mailer {
  const mailer = options.smtpUrl
    ? createSmtpMailer({ ...options, smtpUrl: options.smtpUrl })
    : createOutboxMailer(options);
  // One limit for both transports: the outbox stands in for the server and keeps the same turns.
  const connections = createHostLimiter(MAILER_MAX_CONNECTIONS);
  return { ...mailer, waitForConnection: () => connections.acquire('smtp') };
}

function createSmtpMailer(options: MailerOptions & { smtpUrl: string }): Omit<Mailer, 'waitForConnection'> {
  const { logger } = options;
  assertSmtpUrl(options.smtpUrl);
  const compose = createMessageComposer(options.dkim);
  // No `dkim` here: the message arrives signed, as `raw`, and goes out byte for byte.
  const transporter = createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: MAILER_MAX_CONNECTIONS,
    maxMessages: 100,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  transporter.use('stream', announceData);
  let closed = false;

  return {
    transport: 'smtp',
    async send(mail, sendOptions = {}) {
      if (closed) throw new Error('The mailer is closed');
      const message = toMailOptions(mail, options);
      let held: HeldMessage | undefined;
      try {
        const composed = compose(message);
        const raw = composed.message;
        if (sendOptions.beforeFinalDot) held = new HeldMessage(raw, sendOptions.beforeFinalDot);
        // Composing takes no turn of the event loop: one here lets the pool see connections the server
        // closed meanwhile, rather than give the message to one of them (see `announceData`).
        await nextTurn();
        await transporter.sendMail({ envelope: composed.envelope, raw: held ?? raw });
        return { messageId: composed.messageId };
      } catch (error) {
        // The caller's own refusal, not the stream error nodemailer wraps it in.
        const reported = held?.refusal ?? error;
        const { code, responseCode } = reported as { code?: string; responseCode?: number };
        logger.warn(
          { to: mail.to, subject: mail.subject, code, responseCode, reason: (reported as Error).message },
          'mail not sent',
        );
        throw reported;
      }
    },
    async close() {
      closed = true;
      transporter.close();
    },
  };
}

/**
 * A nodemailer `stream` plugin: tells a held message when the SMTP connection starts reading it.
 * nodemailer's pool creates the message stream when it picks a connection, and the connection pipes it
 * into the socket only once the server has answered DATA with 354, resuming it (smtp-connection `send`);
 * before that the message only fills buffers, so the hold must not count it as handed over.
 */
function announceData(
  mail: { data: { raw?: unknown }; message: unknown },
  done: (error?: Error | null) => void,
) {
  const held = mail.data.raw;
  if (held instanceof HeldMessage) {
    const node = mail.message as { createReadStream: (...args: unknown[]) => Readable };
    const createReadStream = node.createReadStream.bind(node);
    let streams = 0;
    node.createReadStream = (...args) => {
      // The pool sends a message again on another connection when its connection closed mid-send. A held
      // message was read by then (its final dot perhaps released): a second reading would send it empty.
      // It fails instead, as a lost connection, and its sender decides (send again, or uncertain).
      if (++streams > 1) return held.refuseAgain();
      return createReadStream(...args).once('resume', () => held.dataStarted());
    };
  }
  done();
}

/**
 * A message whose end (and so the final dot, which nodemailer writes when the message stream ends) waits
 * for `beforeFinalDot`: it runs once the connection is reading the message and has been given all of it.
 * A refusal destroys the stream: nodemailer then closes the connection, the final dot never sent.
 */
class HeldMessage extends Readable {
  /** Why `beforeFinalDot` refused, if it did. */
  refusal: unknown;
  private pushed = false;
  private readonly started: Promise<void>;
  dataStarted!: () => void;

  constructor(
    private readonly message: Buffer,
    private readonly beforeFinalDot: () => Promise<void>,
  ) {
    // No buffering of its own: the message waits in nodemailer's streams, not here.
    super({ highWaterMark: 0 });
    this.started = new Promise<void>((resolve) => {
      this.dataStarted = resolve;
    });
  }

  override _read() {
    if (this.pushed) return;
    this.pushed = true;
    this.push(this.message);
    this.release().then(
      () => this.push(null),
      (error: unknown) => {
        this.refusal = error;
        this.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  /** A stream that fails at once, this message's refusal the connection lost. */
  refuseAgain(): Readable {
    this.refusal ??= Object.assign(new Error('The SMTP connection closed while the message was being sent'), {
      code: 'ECONNECTION',
    });
    const refusal = this.refusal as Error;
    return new Readable({
      read() {
        this.destroy(refusal);
      },
    });
  }

  private async release() {
    await this.started;
    // The connection's pipe flows on the next turns: let it pass the message on to the socket first.
    await nextTurn();
    await this.beforeFinalDot();
  }
}

function createOutboxMailer(options: MailerOptions): Omit<Mailer, 'waitForConnection'> {
  const { logger, outboxDir } = options;
  const compose = createMessageComposer(options.dkim);
  let closed = false;

  return {
    transport: 'outbox',
    async send(mail, sendOptions = {}) {
      if (closed) throw new Error('The mailer is closed');
      const info = compose(toMailOptions(mail, options));
      // A receiving server records the envelope sender as Return-Path; the file shows it the same way.
      const returnPath = Buffer.from(`Return-Path: <${info.envelope.from}>\r\n`);
      const message = Buffer.concat([returnPath, info.message]);
      // The rename is the outbox's final dot: before it, readers see no message.
      const file = await writeAtomically(outboxDir, outboxFileName(), message, sendOptions.beforeFinalDot);
      logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox');
      return { messageId: info.messageId };
    },
    async close() {
      closed = true;
    },
  };
}

/** `fromMailbox` when it is an address of MAIL_DOMAIN; anything else is refused before sending. */
function ownMailbox(address: string, mailDomain: string | undefined): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  if (!mailDomain || at < 1 || domain !== mailDomain.toLowerCase() || !/^[a-z0-9._+-]+$/i.test(local)) {
    throw new TypeError('fromMailbox must be an address of MAIL_DOMAIN');
  }
  return `${local}@${domain}`;
}

function toMailOptions(
  mail: OutgoingMail,
  options: Pick<MailerOptions, 'from' | 'mailDomain'>,
): MessageOptions {
  for (const name of Object.keys(mail.headers ?? {})) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      throw new TypeError(`The header ${name} is set by the mailer and cannot be given in headers`);
    }
  }
  const from =
    mail.fromMailbox === undefined ? options.from : ownMailbox(mail.fromMailbox, options.mailDomain);
  const envelopeFrom =
    mail.bounceToken !== undefined
      ? verpAddress(addressOf(from), mail.bounceToken)
      : mail.fromMailbox !== undefined
        ? from
        : undefined;
  return {
    from,
    to: mail.to,
    ...(envelopeFrom !== undefined ? { envelope: { from: envelopeFrom, to: mail.to } } : {}),
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    ...(mail.headers ? { headers: preparedHeaders(mail.headers) } : {}),
    ...(mail.messageId ? { messageId: mail.messageId } : {}),
  };
}

/**
 * `List-*` values in printable ASCII go out as written: nodemailer would otherwise MIME-encode a long one
 * as a whole, turning their `<…>` into text no mail client parses. The others (Reply-To is an address
 * nodemailer parses) are left to nodemailer. A line break would start a header of the caller's choosing.
 */
function preparedHeaders(headers: Record<string, string>) {
  const prepared: Record<string, string | { prepared: true; value: string }> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(value)) throw new TypeError(`The header ${name} must not contain a line break`);
    prepared[name] = /^list-/i.test(name) && /^[\x20-\x7e]*$/.test(value) ? { prepared: true, value } : value;
  }
  return prepared;
}

/** Token characters survive servers that change the case of local parts and need no quoting. */
const BOUNCE_TOKEN = /^[a-z0-9]{16,40}$/;

/**
 * The longest local part MAIL_FROM may have: `+b-` and a 32-character delivery token are added to it, and
 * RFC 5321 allows 64 characters, beyond which receivers may refuse the mail or its bounces.
 */
export const VERP_LOCAL_PART_MAX_LENGTH = 64 - '+b-'.length - 32;

/** `digest@example.com` → `digest`. */
export function localPartOf(address: string): string {
  return address.slice(0, address.lastIndexOf('@'));
}

/** `digest@example.com` + `abc` → `digest+b-abc@example.com`: the sender's own address, tagged. */
function verpAddress(address: string, bounceToken: string): string {
  if (!BOUNCE_TOKEN.test(bounceToken)) {
    throw new TypeError('A bounce token must be 16 to 40 lower-case letters and digits');
  }
  return `${localPartOf(address)}+b-${bounceToken}${address.slice(address.lastIndexOf('@'))}`;
}

/**
 * The bounce token of an address made by `verpAddress` (the recipient of a bounce or complaint coming
 * back), in lower case since some servers change the case of local parts; undefined for any other address.
 */
export function bounceTokenOf(address: string): string | undefined {
  const token = /\+b-([^@+]+)@[^@]+$/i.exec(address)?.[1]?.toLowerCase();
  return token && BOUNCE_TOKEN.test(token) ? token : undefined;
}

/** The address part of a mailbox such as `Digest <digest@example.com>`. */
export function addressOf(mailbox: string): string {
  return /<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox.trim();
}

function assertSmtpUrl(value: string): void {
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    // The URL may hold a password: never repeat it in the message.
    throw new TypeError('The SMTP URL is not a valid URL (expected smtp://user:pass@host:port or smtps://…)');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new TypeError(`The SMTP URL must start with smtp:// or smtps://, not ${protocol}//`);
  }
}

let lastStamp = '';
let sameStampCount = 0;

/**
 * `20251121T230559123Z-0000-1a2b3c4d5e6f.eml`: names sort by creation time (milliseconds, then a counter
 * for several mails within one millisecond of this process), and the random part keeps processes that
 * share an outbox from ever choosing the same name.
 */
function outboxFileName(): string {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  sameStampCount = stamp === lastStamp ? sameStampCount + 1 : 0;
  lastStamp = stamp;
  return `${stamp}-${String(sameStampCount).padStart(4, '0')}-${randomBytes(6).toString('hex')}.eml`;
}

/**
 * Readers of the outbox see either no file or the whole message: write beside it, then rename (after
 * `beforeRename`; if it rejects, the message is removed unseen).
 */
async function writeAtomically(
  dir: string,
  name: string,
  content: Buffer,
  beforeRename?: () => Promise<void>,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  const temp = path.join(dir, `.${name}.tmp`);
  try {
    await writeFile(temp, content, { flag: 'wx', mode: 0o600 });
    await beforeRename?.();
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return path.resolve(file);
}
