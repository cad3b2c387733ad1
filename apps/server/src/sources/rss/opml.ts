/**
 * OPML, the list of feeds every feed reader imports and exports (OPML 1.0, 1.1 and 2.0 as Feedly,
 * Inoreader, NetNewsWire, Miniflux and The Old Reader write them): folders are outlines without an
 * `xmlUrl`, feeds are outlines with one. Read through the same safe XML handling as feeds (safe-xml.ts:
 * DOCTYPE skipped, no entity expansion, the encodings feed-encoding.ts knows), with limits on size,
 * outlines and nesting checked before the document is parsed.
 */
import {
  OPML_MAX_BYTES,
  OPML_MAX_OUTLINES,
  OPML_MESSAGES,
  type OpmlFeed,
  SOURCE_NAME_MAX_LENGTH,
} from '@digest/contracts';
import type { Element } from 'domhandler';
import { DomUtils } from 'htmlparser2';
import { AppError } from '#server/platform/http/errors';
import { escapeHtml } from '#server/platform/sanitize-html';
import { decodeFeedBody } from './feed-encoding';
import { readXmlDocument } from './safe-xml';

/** opml › body › 12 levels of folders › feed: deeper than any reader writes (they use one or two). */
const MAX_NESTING = 16;

export interface OpmlFolderFeeds {
  /** '' for feeds outside any folder; a nested folder is "Parent / Child". */
  name: string;
  feeds: OpmlFeed[];
}

export interface OpmlDocument {
  title: string;
  folders: OpmlFolderFeeds[];
}

const refused = (message: string) => new AppError(422, 'OPML_INVALID', message);

const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();

/** An attribute by name in any case: old exporters write `xmlurl` and `XMLURL`. */
function attribute(element: Element, name: string): string {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(element.attribs)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return '';
}

const childElements = (element: Element, name: string) =>
  element.children.filter(
    (child): child is Element => child.type === 'tag' && child.name.toLowerCase() === name,
  );

/** The feed an outline stands for, or undefined for a folder (or an outline that is neither). */
function feedOf(outline: Element): OpmlFeed | undefined {
  const type = attribute(outline, 'type').toLowerCase();
  // A few exporters write `url` with type="rss"; `url` on other types is a link or an include, not a feed.
  const xmlUrl = (attribute(outline, 'xmlUrl') || (type === 'rss' ? attribute(outline, 'url') : '')).trim();
  if (!xmlUrl) return undefined;
  const title = collapse(attribute(outline, 'title') || attribute(outline, 'text')) || xmlUrl;
  return {
    title: title.slice(0, SOURCE_NAME_MAX_LENGTH),
    xmlUrl,
    htmlUrl: attribute(outline, 'htmlUrl').trim(),
  };
}

/**
 * The folders and feeds of an OPML file (bytes in any encoding a feed may use). Throws a 422 AppError
 * with a message for the person for a file too large, not OPML, too deep, with too many outlines or with
 * no feed at all. A feed listed twice in one folder is kept once.
 */
export function parseOpml(bytes: Uint8Array): OpmlDocument {
  if (bytes.byteLength === 0) throw refused(OPML_MESSAGES.empty);
  if (bytes.byteLength > OPML_MAX_BYTES) throw refused(OPML_MESSAGES.tooLarge);
  const text = decodeFeedBody(bytes).replace(/^\uFEFF/, '');
  // Counted on the text, before parsing: 2 000 outlines are refused without building their tree.
  if ((text.match(/<outline[\s/>]/gi)?.length ?? 0) > OPML_MAX_OUTLINES) {
    throw refused(OPML_MESSAGES.tooManyOutlines);
  }
  if (!text.includes('<')) throw refused(OPML_MESSAGES.notOpml);
  const document = readXmlDocument(text, MAX_NESTING, {
    unendedDoctype: () => refused(OPML_MESSAGES.unendedDoctype),
    tooDeep: () => refused(OPML_MESSAGES.tooDeep),
  });
  const root = document.children.find((child): child is Element => child.type === 'tag');
  if (root?.name.toLowerCase() !== 'opml') throw refused(OPML_MESSAGES.notOpml);
  const [head] = childElements(root, 'head');
  const [titleElement] = head ? childElements(head, 'title') : [];
  const title = collapse(titleElement ? DomUtils.textContent(titleElement) : '');
  const [body] = childElements(root, 'body');
  if (!body) throw refused(OPML_MESSAGES.noBody);

  const folders = new Map<string, { feeds: OpmlFeed[]; urls: Set<string> }>();
  const add = (folder: string, feed: OpmlFeed) => {
    const entry = folders.get(folder) ?? { feeds: [], urls: new Set<string>() };
    folders.set(folder, entry);
    if (entry.urls.has(feed.xmlUrl)) return;
    entry.urls.add(feed.xmlUrl);
    entry.feeds.push(feed);
  };
  // Depth first in document order, without recursion (the nesting is bounded above anyway).
  const pending: { outline: Element; folder: string }[] = childElements(body, 'outline')
    .map((outline) => ({ outline, folder: '' }))
    .reverse();
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { outline, folder } = next;
    const feed = feedOf(outline);
    if (feed) {
      add(folder, feed);
      continue;
    }
    const name = collapse(attribute(outline, 'text') || attribute(outline, 'title'));
    const path = [folder, name].filter(Boolean).join(' / ');
    const children = childElements(outline, 'outline');
    for (let at = children.length - 1; at >= 0; at -= 1) {
      pending.push({ outline: children[at] as Element, folder: path });
    }
  }
  if (folders.size === 0) throw refused(OPML_MESSAGES.noFeeds);
  return { title, folders: [...folders].map(([name, { feeds }]) => ({ name, feeds })) };
}

// XML 1.0 forbids these characters anywhere, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is being removed
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const xmlText = (value: string) => escapeHtml(value.replace(NOT_XML, '')).replace(/'/g, '&apos;');

/** An OPML 2.0 document of `feeds` under `title`, every value escaped, as a feed reader imports it. */
export function writeOpml(title: string, feeds: OpmlFeed[], created: Date): string {
  const outlines = feeds.map((feed) => {
    const html = feed.htmlUrl ? ` htmlUrl="${xmlText(feed.htmlUrl)}"` : '';
    const name = xmlText(feed.title || feed.xmlUrl);
    return `    <outline type="rss" text="${name}" title="${name}" xmlUrl="${xmlText(feed.xmlUrl)}"${html}/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${xmlText(title)}</title>`,
    `    <dateCreated>${created.toUTCString()}</dateCreated>`,
    '  </head>',
    '  <body>',
    ...outlines,
    '  </body>',
    '</opml>',
    '',
  ].join('\n');
}
