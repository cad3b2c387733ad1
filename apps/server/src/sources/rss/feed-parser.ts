/**
 * Any feed a user may paste — RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1 — into one shape
 * (ParsedFeed). Content stays raw HTML here; the connector sanitises it for the page it is shown on.
 *
 * Safety: an XML document with a DOCTYPE is refused outright. Entity declarations are how "billion
 * laughs" and external-entity attacks work, and no real feed needs one, so refusing is simpler and safer
 * than any expansion limit. Without a DOCTYPE only the five XML entities and numeric references exist.
 */

import { TextDecoder } from 'node:util';
import { parseDocument } from 'htmlparser2';
import { nestsDeeperThan } from '#server/platform/markup-depth';
import { SourceError } from '#server/sources/source-error';
import type { ParsedFeed } from './feed-model';
import { readJsonFeed } from './json-feed';
import { readXmlFeed } from './xml-feed';

export type { ParsedFeed, ParsedFeedItem } from './feed-model';

export interface FeedSource {
  /** Where the feed was fetched (after redirects): relative links resolve against it. */
  url: string;
  contentType?: string;
}

/** Root element names that make a document a feed even when the server calls it text/html. */
const FEED_ROOTS = new Set(['rss', 'feed', 'rdf:rdf', 'rdf', 'channel']);

const PROLOG_LENGTH = 8192;
const PROLOG_TOKEN = /<(?:\?[^>]*>|!--[\s\S]*?-->|!doctype\s+([A-Za-z][\w:.-]*)[^>]*>?|([A-Za-z][\w:.-]*))/gi;

/** The document's root element name in lower case (a DOCTYPE's name counts), '' when there is none. */
function rootNameOf(text: string): string {
  // Only the start is looked at, which also bounds the cost of an unterminated comment.
  for (const match of text.slice(0, PROLOG_LENGTH).matchAll(PROLOG_TOKEN)) {
    const name = match[1] ?? match[2];
    if (name) return name.toLowerCase();
  }
  return '';
}

const XML_DECLARED_ENCODING = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;
const HEADER_CHARSET = /charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i;

function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/** Characters of windows-1252 bytes 0x80–0x9F (the punctuation ISO-8859-1 lacks); unassigned ones kept. */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Node decodes the WHATWG "windows-1252" (which every latin1 / ISO-8859-1 / ASCII label means) as
 * ISO-8859-1, turning curly quotes and dashes into control characters; map them as browsers do.
 */
function windows1252(control: string): string {
  return WINDOWS_1252_HIGH[control.charCodeAt(0) - 0x80] ?? control;
}

/**
 * The text of a fetched feed. A byte-order mark decides first; then the encoding the XML declaration
 * names — the document knows itself better than a server's default `charset=ISO-8859-1` — then the
 * Content-Type charset, then UTF-8. Labels Node cannot decode fall back to UTF-8.
 */
export function decodeFeedBody(bytes: Uint8Array, contentType = ''): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  const decoder =
    decoderFor(XML_DECLARED_ENCODING.exec(head)?.[1]) ??
    decoderFor(HEADER_CHARSET.exec(contentType)?.[1]) ??
    new TextDecoder('utf-8');
  const text = decoder.decode(bytes);
  return decoder.encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, windows1252) : text;
}

/** True when the answer is a web page rather than a feed (then the connector looks for a feed link). */
export function isHtmlPage(text: string, contentType = ''): boolean {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return false;
  const root = rootNameOf(trimmed);
  if (root === 'html') return true;
  if (FEED_ROOTS.has(root)) return false;
  return /\b(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}

function parseJson(text: string, url: string): ParsedFeed {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new SourceError('invalid_response', 'The feed answered with JSON that cannot be read');
  }
  const feed = readJsonFeed(document, url);
  if (!feed)
    throw new SourceError('invalid_response', 'The address answered with JSON that is not a JSON Feed');
  return feed;
}

/** Far deeper than any feed (an xhtml post rarely passes 30); see platform/markup-depth. */
const MAX_NESTING = 256;

function parseXml(text: string, url: string): ParsedFeed {
  if (rootNameOf(text) === '' && !text.includes('<')) {
    throw new SourceError('invalid_response', 'The address answered with something that is not a feed');
  }
  if (nestsDeeperThan(text, MAX_NESTING)) {
    throw new SourceError('invalid_response', 'The feed nests its elements too deeply to be read');
  }
  const document = parseDocument(text, { xmlMode: true, decodeEntities: true });
  const declaresDoctype = document.children.some(
    (node) => node.type === 'directive' && /^!doctype/i.test(node.name),
  );
  if (declaresDoctype) {
    throw new SourceError(
      'invalid_response',
      'The feed declares a DOCTYPE, which is refused (entity expansion)',
    );
  }
  const feed = readXmlFeed(document, url);
  if (!feed) {
    throw new SourceError(
      'invalid_response',
      'The address answered with something that is not an RSS, Atom or JSON feed',
    );
  }
  return feed;
}

/**
 * The feed in `body` (text, or bytes decoded by their declared encoding). Throws SourceError
 * `invalid_response` for a DOCTYPE, an HTML page, or anything that is not a feed.
 */
export function parseFeed(body: string | Uint8Array, source: FeedSource): ParsedFeed {
  const raw = typeof body === 'string' ? body : decodeFeedBody(body, source.contentType);
  const text = raw.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{')) return parseJson(text, source.url);
  if (isHtmlPage(text, source.contentType)) {
    throw new SourceError('invalid_response', 'The address answered with a web page, not a feed');
  }
  return parseXml(text, source.url);
}
