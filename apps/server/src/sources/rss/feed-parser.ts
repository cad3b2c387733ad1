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
import { type ChildNode, type Document, isTag, isText } from 'domhandler';
import { decodeHTMLStrict } from 'entities';
import { parseDocument } from 'htmlparser2';
import { nestsDeeperThan } from '#server/platform/markup-depth';
import { SourceError } from '#server/sources/source-error';
import { decodeFeedBody } from './feed-encoding';
import type { ParsedFeed } from './feed-model';
import { readJsonFeed } from './json-feed';
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

/**
 * Where a declaration of the internal subset (`<!ENTITY …>`, `<!ATTLIST …>`…) that starts at `from` ends,
 * or -1: at the first `>` outside quotes. Not recursive, so no nesting can exhaust the stack.
 */
function endOfMarkupDeclaration(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, at + 1);
      if (close === -1) return -1;
      at = close + 1;
    } else if (char === '>') return at + 1;
    else at += 1;
  }
  return -1;
}

/** Where the DOCTYPE that starts at `from` (just past `<!DOCTYPE`) ends, or -1. Quotes and comments skipped. */
function endOfDeclaration(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, at + 1);
      if (close === -1) return -1;
      at = close + 1;
    } else if (text.startsWith('<!--', at)) {
      const close = text.indexOf('-->', at + 4);
      if (close === -1) return -1;
      at = close + 3;
    } else if (text.startsWith('<?', at)) {
      const close = text.indexOf('?>', at + 2);
      if (close === -1) return -1;
      at = close + 2;
    } else if (char === '[') {
      // The internal subset: declarations, comments, processing instructions, parameter references.
      at += 1;
      while (at < text.length && text[at] !== ']') {
        if (text.startsWith('<!--', at) || text.startsWith('<?', at)) {
          const close = text.indexOf(text[at + 1] === '!' ? '-->' : '?>', at + 2);
          if (close === -1) return -1;
          at = close + (text[at + 1] === '!' ? 3 : 2);
        } else if (text.startsWith('<!', at)) {
          const end = endOfMarkupDeclaration(text, at + 2);
          if (end === -1) return -1;
          at = end;
        } else at += 1;
      }
      if (at >= text.length) return -1;
      at += 1;
    } else if (char === '>') {
      return at + 1;
    } else at += 1;
  }
  return -1;
}

const PROLOG_SKIP = /\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->)/y;

/**
 * The document with its DOCTYPE declaration (internal subset and all) cut out, unread; the document as
 * it is when it has none. Only the prolog is searched: a DOCTYPE comes before the root element.
 */
function withoutDoctype(text: string): string {
  let at = 0;
  for (;;) {
    PROLOG_SKIP.lastIndex = at;
    if (!PROLOG_SKIP.test(text)) break;
    at = PROLOG_SKIP.lastIndex;
  }
  while (/\s/.test(text[at] ?? '')) at += 1;
  if (text.slice(at, at + 9).toUpperCase() !== '<!DOCTYPE') return text;
  const end = endOfDeclaration(text, at + 9);
  if (end === -1) {
    throw new SourceError('invalid_response', 'The feed begins a DOCTYPE and never ends it');
  }
  return text.slice(0, at) + text.slice(end);
}

/**
 * Character and entity references in text and attribute values, decoded once: XML's five, numeric ones
 * and HTML's named entities (with their semicolon). Any other `&name;` stays as written. CDATA stays
 * as written too. Iterative, so no document can exhaust the stack here.
 */
function decodeReferences(document: Document): void {
  const pending: ChildNode[] = [...document.children];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (isText(node)) {
      if (node.data.includes('&')) node.data = decodeHTMLStrict(node.data);
    } else if (isTag(node)) {
      for (const [name, value] of Object.entries(node.attribs)) {
        if (value.includes('&')) node.attribs[name] = decodeHTMLStrict(value);
      }
      for (const child of node.children) pending.push(child);
    }
  }
}

function parseXml(text: string, url: string): ParsedFeed {
  if (rootNameOf(text) === '' && !text.includes('<')) {
    throw new SourceError('invalid_response', 'The address answered with something that is not a feed');
  }
  const markup = withoutDoctype(text);
  if (nestsDeeperThan(markup, MAX_NESTING)) {
    throw new SourceError('invalid_response', 'The feed nests its elements too deeply to be read');
  }
  const document = parseDocument(markup, { xmlMode: true, decodeEntities: false });
  decodeReferences(document);
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
