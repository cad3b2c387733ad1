/**
 * Any feed a user may paste — RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1 — into one shape
 * (ParsedFeed). Content stays raw HTML here; the connector sanitises it for the page it is shown on.
 *
 * Safety: a DOCTYPE is read past, never obeyed. Its internal subset is skipped unread, nothing it names
 * is fetched (we fetch nothing at all), and no entity it declares is ever expanded: only the XML
 * entities, numeric references and HTML's named entities (the Netscape RSS 0.91 DTD declares those, and
 * feeds use them) are decoded, once, in place. "Billion laughs", quadratic blow-up and external
 * entities (XXE) therefore have nothing to work with: `&lol9;` stays the five characters written.
 */
import { SourceError } from '#server/sources/source-error';
import { decodeFeedBody } from './feed-encoding';
import type { ParsedFeed } from './feed-model';
import { readJsonFeed } from './json-feed';
import { readXmlDocument } from './safe-xml';
import { readXmlFeed } from './xml-feed';

export { decodeFeedBody } from './feed-encoding';
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

/** True when the answer is a web page rather than a feed (then the connector looks for a feed link). */
export function isHtmlPage(text: string, contentType = ''): boolean {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return false;
  const root = rootNameOf(trimmed);
  if (root === 'html') return true;
  // By local name: a feed's root may carry any prefix (`<atom:feed>`, `<rdf:RDF>`).
  if (FEED_ROOTS.has(root) || FEED_ROOTS.has(root.slice(root.indexOf(':') + 1))) return false;
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
  const document = readXmlDocument(text, MAX_NESTING, {
    unendedDoctype: () => new SourceError('invalid_response', 'The feed begins a DOCTYPE and never ends it'),
    tooDeep: () => new SourceError('invalid_response', 'The feed nests its elements too deeply to be read'),
  });
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
 * `invalid_response` for an HTML page, or anything that is not a feed.
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
