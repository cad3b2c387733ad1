import { createHash } from 'node:crypto';
import type { NewsletterMessageKind } from '@digest/contracts';
import { type HeaderLines, simpleParser } from 'mailparser';
import { htmlToText, sanitizeHtml } from '#server/platform/sanitize-html';
import type { InboundMessageInput } from './mailbox.repository';
import { dropTrackingPixels } from './tracking-pixels';

/** What the mailbox makes of a message: an ordinary issue, or one to pin until the user acts on it. */
export interface Classification {
  kind: NewsletterMessageKind;
  confirmUrl: string | null;
  forwardingCode: string | null;
}

/**
 * Decides a parsed message's kind (confirmation, forwarding code, reply-to-confirm). The inbound server
 * calls it once per message, after parsing and before storing; the default keeps everything a newsletter.
 */
export type ClassifyMessage = (message: ParsedInboundMessage) => Classification | Promise<Classification>;

export const classifyAsNewsletter: ClassifyMessage = () => ({
  kind: 'newsletter',
  confirmUrl: null,
  forwardingCode: null,
});

type StoredMessage = InboundMessageInput['message'];

/** A received message parsed and sanitised: everything stored about it except who it was for and its checks. */
export interface ParsedInboundMessage {
  sender: InboundMessageInput['sender'];
  message: Pick<
    StoredMessage,
    | 'internetMessageId'
    | 'envelopeFrom'
    | 'fromAddress'
    | 'fromName'
    | 'replyTo'
    | 'subject'
    | 'sentAt'
    | 'receivedAt'
    | 'html'
    | 'text'
    | 'excerpt'
    | 'sizeBytes'
  >;
}

/** A message that cannot be stored as it is; the SMTP answer says why (554: do not retry). */
export class UnacceptableMessageError extends Error {}

export const EXCERPT_MAX_LENGTH = 200;
/** RFC 5322's line limit: longer header values are junk, and they end up in lists and indexes. */
const HEADER_MAX_LENGTH = 998;
/** List-Id is a DNS-like name (RFC 2919): at most 255 characters. */
const LIST_ID_MAX_LENGTH = 255;
const URL_MAX_LENGTH = 2_000;

/** PostgreSQL text cannot hold NUL; broken messages carry them. Controls other than tab/newline go too. */
function clean(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

function oneLine(value: string, max = HEADER_MAX_LENGTH): string {
  return clean(value).replace(/\s+/g, ' ').trim().slice(0, max);
}

/** A header's value as it was sent, unfolded (only the first of repeated headers counts). */
function headerValue(lines: HeaderLines, key: string): string | undefined {
  const line = lines.find((candidate) => candidate.key === key)?.line;
  if (line === undefined) return undefined;
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
}

/** The identifier of `List-Id: Name <id.example.com>` (or a bare identifier), lower-cased. */
export function listIdOf(value: string | undefined): string | null {
  if (!value) return null;
  const inside = /<([^<>]+)>/.exec(value)?.[1] ?? value;
  const id = inside.trim().toLowerCase();
  return /^[^\s<>"]+$/.test(id) && id.length <= LIST_ID_MAX_LENGTH ? id : null;
}

/**
 * The web and `mailto:` targets of List-Unsubscribe (RFC 2369): other schemes are never followed. An https
 * link is preferred; a plain http one is kept only when there is none, for unsubscribe.ts, which posts to
 * it only on a FETCH_ALLOW_PRIVATE_HOSTS host (an intranet list, a test's server) and never links it.
 */
export function unsubscribeTargetsOf(value: string | undefined): {
  url: string | null;
  mailto: string | null;
} {
  const targets = [...(value ?? '').matchAll(/<([^<>]+)>/g)].map((match) => (match[1] ?? '').trim());
  let url: string | null = null;
  let httpUrl: string | null = null;
  let mailto: string | null = null;
  for (const target of targets) {
    if (target.length > URL_MAX_LENGTH) continue;
    let parsed: URL;
    try {
      parsed = new URL(target);
    } catch {
      continue;
    }
    if (parsed.protocol === 'https:' && url === null) url = parsed.href;
    if (parsed.protocol === 'http:' && httpUrl === null) httpUrl = parsed.href;
    if (parsed.protocol === 'mailto:' && mailto === null && parsed.pathname.includes('@'))
      mailto = parsed.href;
  }
  return { url: url ?? httpUrl, mailto };
}

/** The first words of `text`, cut at a word and marked when cut. */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT_MAX_LENGTH) return flat;
  const cut = flat.slice(0, EXCERPT_MAX_LENGTH - 1);
  const atWord = cut.slice(
    0,
    cut.lastIndexOf(' ') > EXCERPT_MAX_LENGTH / 2 ? cut.lastIndexOf(' ') : cut.length,
  );
  return `${atWord}…`;
}

/**
 * A stable Message-ID for a message without one, from its content: the sender's retry of the same message
 * gets the same one and is stored once.
 */
export function derivedMessageId(raw: Buffer): string {
  return `${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@derived.invalid`;
}

function messageIdOf(value: string | undefined, raw: Buffer): string {
  const id = value ? oneLine(value.replace(/^\s*<|>\s*$/g, '')) : '';
  return id || derivedMessageId(raw);
}

/** The Date header when it is a real date not far in the future, else when the message arrived. */
function sentAtOf(date: Date | undefined, receivedAt: Date): Date {
  if (!date || Number.isNaN(date.getTime())) return receivedAt;
  const tooLate = receivedAt.getTime() + 24 * 60 * 60_000;
  return date.getTime() > tooLate || date.getFullYear() < 1970 ? receivedAt : date;
}

/**
 * Parses a raw message (RFC 5322, any MIME) into what the mailbox stores: the sender (From, List-Id,
 * List-Unsubscribe), the HTML with tracking pixels dropped and through the one sanitiser, the text (or
 * the HTML's text), an excerpt. Broken MIME, unknown charsets and raw 8-bit headers come out as readable
 * as mailparser can make them; a message with no sender at all is refused (UnacceptableMessageError).
 */
export async function parseInboundMessage(
  raw: Buffer,
  envelope: { envelopeFrom: string; receivedAt: Date },
): Promise<ParsedInboundMessage> {
  // Images stay links: attachments are not kept, and inline (cid:) images are dropped by the sanitiser. An
  // HTML-only message's text comes from its sanitised HTML below, the same way as every other text of ours.
  const parsed = await simpleParser(raw, {
    skipImageLinks: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  const lines = parsed.headerLines;
  const from = parsed.from?.value.find((entry) => entry.address);
  const fromAddress = oneLine(from?.address ?? envelope.envelopeFrom).toLowerCase();
  if (!fromAddress.includes('@')) throw new UnacceptableMessageError('The message has no From address');
  const fromName = from?.name ? oneLine(from.name) : null;
  const listIdHeader = headerValue(lines, 'list-id');
  const listId = listIdOf(listIdHeader);
  const listName = listIdHeader ? oneLine(listIdHeader.replace(/<[^<>]*>/g, '')).replace(/^"|"$/g, '') : '';
  const unsubscribe = unsubscribeTargetsOf(headerValue(lines, 'list-unsubscribe'));
  const oneClick = /^\s*List-Unsubscribe=One-Click\s*$/i.test(
    headerValue(lines, 'list-unsubscribe-post') ?? '',
  );

  const html = typeof parsed.html === 'string' ? clean(sanitizeHtml(dropTrackingPixels(parsed.html))) : '';
  const text = clean(parsed.text?.trim() ? parsed.text.trim() : html ? htmlToText(html) : '');
  const replyTo = parsed.replyTo?.value.find((entry) => entry.address)?.address;

  return {
    sender: {
      address: fromAddress,
      listId,
      name: fromName || listName || fromAddress,
      unsubscribeUrl: unsubscribe.url,
      unsubscribeMailto: unsubscribe.mailto,
      unsubscribeOneClick: unsubscribe.url !== null && oneClick,
    },
    message: {
      internetMessageId: messageIdOf(parsed.messageId, raw),
      envelopeFrom: envelope.envelopeFrom.toLowerCase(),
      fromAddress,
      fromName,
      replyTo: replyTo ? oneLine(replyTo).toLowerCase() : null,
      subject: oneLine(parsed.subject ?? '') || '(no subject)',
      sentAt: sentAtOf(parsed.date, envelope.receivedAt),
      receivedAt: envelope.receivedAt,
      html: html || null,
      text,
      excerpt: excerptOf(text),
      sizeBytes: raw.length,
    },
  };
}
