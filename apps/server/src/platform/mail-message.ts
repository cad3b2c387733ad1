import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import dkimSign from 'nodemailer/lib/dkim/sign';
import MailComposer from 'nodemailer/lib/mail-composer';

/**
 * The bytes of one outgoing message: nodemailer's headers, our own body, and (with a key) a DKIM
 * signature in front.
 *
 * Every message the mailer sends has one shape, multipart/alternative with a text and an HTML part, and
 * its parts are the bulk of it (an issue's HTML is 30–100 KB). nodemailer composes them through a chain of
 * streams that scans each part's characters several times to choose an encoding, encodes it as
 * quoted-printable with a regular expression per output line, converts the line breaks, and for DKIM
 * parses the finished message again to canonicalise its body: more than half of the mailer's CPU per
 * message (measured, bench/README.md "Issue 15, third stop"). Here the parts are always
 * quoted-printable (what nodemailer chose for them too, mostly-Latin text), encoded in one pass, the body
 * is assembled as one string, and its DKIM body hash is taken over that string. The header block (address
 * parsing, RFC 2047 words, folding) and the DKIM-Signature field (`nodemailer/lib/dkim/sign`) are still
 * nodemailer's, so they read as before.
 */

export interface ComposedMessage {
  /** The whole message, CRLF line breaks, the DKIM-Signature field first when signed. */
  message: Buffer;
  envelope: { from: string; to: string[] };
  messageId: string;
}

export interface MessageDkim {
  domainName: string;
  keySelector: string;
  /** PEM */
  privateKey: string;
}

/** The message's header and body options (nodemailer's), with both parts as strings. */
export type MessageOptions = Omit<SendMailOptions, 'html' | 'text'> & { html: string; text: string };

export function createMessageComposer(dkim: MessageDkim | undefined) {
  // The PEM is parsed once, not for every signature.
  const signingKey = dkim ? { ...dkim, privateKey: createPrivateKey(dkim.privateKey) } : undefined;
  return function composeMessage(options: MessageOptions): ComposedMessage {
    const text = part('text/plain', options.text);
    const html = part('text/html', options.html);
    // The parts are given as `raw` nodes: nodemailer builds the root's headers (and the boundary) and
    // never reads or encodes the content; the body is put together below, as nodemailer streams it.
    const root = new MailComposer({ ...options, text: { raw: text }, html: { raw: html } }).compile();
    const header = root.buildHeaders();
    const boundary = root.boundary as string;
    const body = `--${boundary}\r\n${text}\r\n--${boundary}\r\n${html}\r\n--${boundary}--\r\n`;
    const signature = signingKey ? `${dkimSignatureField(header, body, signingKey)}\r\n` : '';
    const envelope = root.getEnvelope();
    return {
      message: Buffer.from(`${signature}${header}\r\n\r\n${body}`),
      envelope: { from: envelope.from || '', to: envelope.to },
      messageId: root.messageId(),
    };
  };
}

/** A MIME part in UTF-8, quoted-printable: its two headers, a blank line and the encoded content. */
function part(type: 'text/plain' | 'text/html', content: string) {
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encodeQuotedPrintable(content)}`;
}

/** RFC 2045 §6.7: bytes a quoted-printable line holds as they are (tab and printable ASCII but `=`). */
const LITERAL = new Uint8Array(256);
for (let byte = 0x20; byte <= 0x7e; byte++) LITERAL[byte] = byte === 0x3d ? 0 : 1;
LITERAL[0x09] = 1;
const HEX = Buffer.from('0123456789ABCDEF', 'latin1');
/** A soft break's `=` ends a line of at most 76 characters, so what it follows is at most 75. */
const MAX_CONTENT = 75;

/**
 * `text` as quoted-printable with CRLF line breaks (RFC 2045 §6.7): UTF-8 bytes outside printable ASCII
 * and `=` as `=XX`, a space or tab ending a line as `=20`/`=09`, lines longer than 76 characters split by
 * soft breaks (`=` at the end) that cut neither an `=XX` nor the bytes of one UTF-8 character. One pass
 * over the bytes: an issue's HTML is tens of kilobytes, in lines thousands of characters long.
 */
export function encodeQuotedPrintable(text: string): string {
  const input = Buffer.from(text, 'utf8');
  const length = input.length;
  // At most 3 bytes out per byte in, plus a 3-byte soft break per ≥ 64 bytes out.
  const output = Buffer.allocUnsafe(3 * length + (length >> 2) + 16);
  let out = 0;
  let column = 0;
  let i = 0;
  while (i < length) {
    const byte = input[i] as number;
    // Most bytes of an issue: printable ASCII other than space, tab and `=`, with room on the line.
    if (byte > 0x20 && byte < 0x7f && byte !== 0x3d && column < MAX_CONTENT) {
      output[out++] = byte;
      column++;
      i++;
      continue;
    }
    if (byte === 0x0d || byte === 0x0a) {
      output[out++] = 0x0d;
      output[out++] = 0x0a;
      column = 0;
      i += byte === 0x0d && input[i + 1] === 0x0a ? 2 : 1;
      continue;
    }
    const next = input[i + 1];
    const endsLine = next === undefined || next === 0x0d || next === 0x0a;
    const literal = LITERAL[byte] === 1 && !(endsLine && (byte === 0x20 || byte === 0x09));
    const count = literal ? 1 : utf8SequenceLength(input, i);
    const width = literal ? 1 : 3 * count;
    if (column + width > MAX_CONTENT) {
      output[out++] = 0x3d;
      output[out++] = 0x0d;
      output[out++] = 0x0a;
      column = 0;
    }
    if (literal) {
      output[out++] = byte;
    } else {
      for (let k = i; k < i + count; k++) {
        const escaped = input[k] as number;
        output[out++] = 0x3d;
        output[out++] = HEX[escaped >> 4] as number;
        output[out++] = HEX[escaped & 0x0f] as number;
      }
    }
    column += width;
    i += count;
  }
  return output.toString('latin1', 0, out);
}

/** The bytes of the UTF-8 character starting at `at` (1 for anything but a lead byte and its continuations). */
function utf8SequenceLength(bytes: Buffer, at: number): number {
  const lead = bytes[at] as number;
  const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  let count = 1;
  while (count < expected && ((bytes[at + count] ?? 0) & 0xc0) === 0x80) count++;
  return count;
}

/**
 * The DKIM-Signature field (rsa-sha256, relaxed/relaxed, RFC 6376) of a message whose header block and
 * body are these: the body hash is taken here, over the body in relaxed form; nodemailer selects, canonicalises and signs the headers.
 */
function dkimSignatureField(
  header: string,
  body: string,
  key: Omit<MessageDkim, 'privateKey'> & { privateKey: KeyObject },
) {
  const bodyHash = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const signed = dkimSign(headerFields(header), 'sha256', bodyHash, key);
  if (!signed) throw new Error('The message could not be signed with the DKIM key');
  return signed;
}

/** RFC 6376 §3.4.4: whitespace runs as one space, none at a line's end, no empty lines at the end. */
export function relaxedBody(body: string): string {
  // Single spaces, between every two words, are left alone: only runs and tabs are replaced.
  let relaxed = body.replace(/[ \t]+(?=\r\n)/g, '').replace(/ [ \t]+|\t[ \t]*/g, ' ');
  let end = relaxed.length;
  while (end >= 2 && relaxed.startsWith('\r\n', end - 2)) end -= 2;
  relaxed = relaxed.slice(0, end).replace(/[ \t]+$/, '');
  return relaxed === '' ? '' : `${relaxed}\r\n`;
}

/** The header block as nodemailer's DKIM parser gives it: each field (folded lines included) and its lower-case name. */
function headerFields(header: string) {
  // The signer hashes them as binary strings, one character per byte (headers are ASCII unless a
  // caller's header holds UTF-8 as it is).
  const bytes = /[\u0080-\uffff]/.test(header) ? Buffer.from(header).toString('latin1') : header;
  return bytes.split(/\r\n(?![ \t])/).map((line) => ({
    key: line.slice(0, line.indexOf(':')).trim().toLowerCase(),
    line,
  }));
}
