/**
 * The text of a fetched feed from its bytes. Which encoding, in this order (RFC 7303 §3 and Appendix F,
 * as browsers and feed readers apply it):
 *
 * 1. A byte-order mark: UTF-8, UTF-16 LE/BE, UTF-32 LE/BE.
 * 2. No mark, but the first bytes are `<` or `{` (or white space) in UTF-16 or UTF-32: that encoding
 *    (RFC 7303 Appendix F's detection, and RFC 4627's for JSON).
 * 3. The Content-Type charset when the media type is XML or JSON (`text/xml`, `application/xml`,
 *    `…+xml`, `application/json`, `…+json`): the server's word outranks the document's (RFC 7303 §3.2).
 *    One exception, for the commonest misconfiguration (a server's default `charset=ISO-8859-1` on a
 *    document that declares UTF-8 and is valid UTF-8): then UTF-8.
 * 4. The encoding the XML declaration names.
 * 5. The Content-Type charset of any other media type (`text/html`, `text/plain`: servers that do not know
 *    what a feed is).
 * 6. UTF-8.
 *
 * A label that cannot be decoded is skipped for the next step. A UTF-16 or UTF-32 label on bytes that are
 * plainly single-byte (`<?xml` in ASCII: .NET writes `encoding="utf-16"` on documents it then sends as
 * UTF-8) is skipped too. Decoding is Node's TextDecoder (WHATWG labels, full ICU: windows-125x,
 * ISO-8859-*, KOI8-R/U, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, GB18030, Big5, EUC-KR…) and, since WHATWG
 * has no UTF-32, a decoder of our own for that.
 */
import { TextDecoder } from 'node:util';

type Decode = (bytes: Uint8Array) => string;

/** UTF-32 in either byte order; a code point outside Unicode becomes U+FFFD. */
function utf32(littleEndian: boolean): Decode {
  return (bytes) => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const parts: string[] = [];
    let chunk: number[] = [];
    for (let at = 0; at + 4 <= bytes.length; at += 4) {
      const code = view.getUint32(at, littleEndian);
      const valid = code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      chunk.push(valid ? code : 0xfffd);
      if (chunk.length === 8192) {
        parts.push(String.fromCodePoint(...chunk));
        chunk = [];
      }
    }
    if (bytes.length % 4 !== 0) chunk.push(0xfffd);
    parts.push(String.fromCodePoint(...chunk));
    return parts.join('');
  };
}

/** Characters of windows-1252 bytes 0x80–0x9F (the punctuation ISO-8859-1 lacks); unassigned ones kept. */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Whatever the ICU build does with the WHATWG "windows-1252" (which every latin1 / ISO-8859-1 / ASCII
 * label means), curly quotes and dashes come out as browsers show them, never as C1 control characters.
 */
function windows1252(control: string): string {
  return WINDOWS_1252_HIGH[control.charCodeAt(0) - 0x80] ?? control;
}

function utf16or32(name: string): 'utf-16' | 'utf-32' | undefined {
  const label = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (/^(?:utf16|ucs2|unicode|utf16le|utf16be|iso10646ucs2)$/.test(label)) return 'utf-16';
  if (/^(?:utf32|ucs4|utf32le|utf32be|iso10646ucs4)$/.test(label)) return 'utf-32';
  return undefined;
}

/** A decoder for a charset label, or undefined when the label names nothing Node can decode. */
function decoderFor(label: string | undefined): Decode | undefined {
  if (!label) return undefined;
  const lower = label.toLowerCase();
  if (utf16or32(lower) === 'utf-32') return utf32(!lower.endsWith('be'));
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(lower);
  } catch {
    return undefined;
  }
  if (decoder.encoding !== 'windows-1252') return (bytes) => decoder.decode(bytes);
  return (bytes) => decoder.decode(bytes).replace(/[\u0080-\u009f]/g, windows1252);
}

/** The encoding named by a byte-order mark, with the mark's length; undefined when there is none. */
function byByteOrderMark(bytes: Uint8Array): [string, number] | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return ['utf-8', 3];
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return ['utf-32le', 4];
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return ['utf-32be', 4];
  if (b0 === 0xff && b1 === 0xfe) return ['utf-16le', 2];
  if (b0 === 0xfe && b1 === 0xff) return ['utf-16be', 2];
  return undefined;
}

/** UTF-16 or UTF-32 told by where the zero bytes of the first (ASCII) character sit. */
function byZeroBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length < 4) return undefined;
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0 && b1 === 0 && b2 === 0 && b3 !== 0) return 'utf-32be';
  if (b0 !== 0 && b1 === 0 && b2 === 0 && b3 === 0) return 'utf-32le';
  if (b0 === 0 && b1 !== 0 && b2 === 0 && b3 !== 0) return 'utf-16be';
  if (b0 !== 0 && b1 === 0 && b2 !== 0 && b3 === 0) return 'utf-16le';
  return undefined;
}

const XML_DECLARED_ENCODING = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;
const HEADER_CHARSET = /;\s*charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i;
const XML_OR_JSON_MEDIA_TYPE =
  /^\s*(?:text\/xml|application\/xml|[a-z]+\/[\w.+-]*\+(?:xml|json)|application\/json)\s*(?:;|$)/i;
const SINGLE_BYTE_DEFAULTS = new Set(['windows-1252', 'us-ascii', 'ascii', 'iso-8859-1', 'latin1', 'l1']);

/** Whether bytes that look like UTF-8 really are (a fatal decoder stops at the first bad sequence). */
function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The label of a single-byte-compatible document; UTF-16/32 labels cannot describe such bytes. */
const usable = (label: string | undefined) => (label && !utf16or32(label) ? label : undefined);

/** The text of a fetched feed (see the precedence above); a leading byte-order mark is dropped. */
export function decodeFeedBody(bytes: Uint8Array, contentType = ''): string {
  const marked = byByteOrderMark(bytes);
  if (marked) {
    const [label, length] = marked;
    return (decoderFor(label) as Decode)(bytes.subarray(length));
  }
  const wide = byZeroBytes(bytes);
  if (wide) return (decoderFor(wide) as Decode)(bytes);

  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  const declared = usable(XML_DECLARED_ENCODING.exec(head)?.[1]);
  const header = usable(HEADER_CHARSET.exec(contentType)?.[1]);
  const headerFirst = XML_OR_JSON_MEDIA_TYPE.test(contentType);
  const serverDefault =
    header !== undefined &&
    SINGLE_BYTE_DEFAULTS.has(header.toLowerCase()) &&
    declared !== undefined &&
    /^utf-?8$/i.test(declared) &&
    isValidUtf8(bytes);
  const order = serverDefault ? [declared] : headerFirst ? [header, declared] : [declared, header];
  for (const label of order) {
    const decode = decoderFor(label);
    if (decode) return decode(bytes);
  }
  return new TextDecoder('utf-8').decode(bytes);
}
