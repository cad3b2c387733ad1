/**
 * RSS 0.9x/2.0, RSS 1.0 (RDF) and Atom 0.3/1.0 from an XML document htmlparser2 parsed in XML mode
 * (lenient with the broken markup real feeds send; it decodes only the XML predefined and numeric
 * entities, and never expands anything a DOCTYPE declares — feed-parser refuses those anyway).
 *
 * Elements are matched by namespace URI, not by prefix, since feeds pick any prefix (`atom10:link`,
 * `a10:updated`); an undeclared conventional prefix (`atom:link` without xmlns:atom) counts as its usual
 * namespace. Local names are compared in lower case because feeds write `pubdate` as often as `pubDate`.
 * An `rss` root in a namespace we do not know (`<rss xmlns="http://purl.org/rss/2.0/">`) reads as RSS.
 * CDF (Microsoft's Channel Definition Format: CHANNEL, ITEM, HREF attributes) reads as RSS.
 */
import type { Document, Element } from 'domhandler';
import { DomUtils } from 'htmlparser2';
import { escapeHtml, htmlToText } from '#server/platform/sanitize-html';
import { parseFeedDate } from './feed-dates';
import { collapse, firstImageIn, type ParsedFeed, type ParsedFeedItem, resolveUrl } from './feed-model';

/** Namespace URIs → the short key the readers below match on. RSS 0.90/1.0/2.0 all read as ''. */
const NAMESPACES: Record<string, string> = {
  'http://www.w3.org/2005/Atom': 'atom',
  'http://purl.org/atom/ns#': 'atom',
  // Atom's drafts before 0.3 ("Echo", "Pie"), still in old feeds.
  'http://purl.org/echo/': 'atom',
  'http://purl.org/pie/': 'atom',
  'http://purl.org/rss/1.0/': '',
  'http://my.netscape.com/rdf/simple/0.9/': '',
  'http://backend.userland.com/rss2': '',
  'http://backend.userland.com/rss': '',
  'http://purl.org/net/rss1.1#': '',
  'http://blogs.law.harvard.edu/tech/rss': '',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://search.yahoo.com/mrss/': 'media',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'https://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://www.w3.org/1999/xhtml': 'xhtml',
};
/** Feeds also write http://www.itunes.com/DTDs/PodCast-1.0.dtd and http://purl.org/dc/elements/1.1 (no slash). */
const comparableUri = (uri: string) => uri.toLowerCase().replace(/\/+$/, '');
const NAMESPACE_KEYS = new Map(Object.entries(NAMESPACES).map(([uri, key]) => [comparableUri(uri), key]));
const KNOWN_KEYS = new Set(Object.values(NAMESPACES));
const CONVENTIONAL_PREFIXES = new Set([
  'atom',
  'rdf',
  'content',
  'dc',
  'dcterms',
  'media',
  'itunes',
  'xhtml',
]);

/** Deep enough for every feed structure; stops a hostile nesting from exhausting the stack. */
const MAX_DEPTH = 48;

interface XmlNode {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  element: Element;
  /** xml:base in effect, else the feed's URL. */
  base: string;
  /** Whether `base` comes from an xml:base (here or on an ancestor). */
  hasXmlBase: boolean;
}

function toNode(
  element: Element,
  scope: Record<string, string>,
  inherited: { base: string; hasXmlBase: boolean },
  depth: number,
  aliases: ReadonlyMap<string, string> = NAMESPACE_KEYS,
): XmlNode {
  let inScope = scope;
  for (const [attribute, value] of Object.entries(element.attribs)) {
    if (attribute === 'xmlns') inScope = { ...inScope, '': value.trim() };
    else if (attribute.startsWith('xmlns:')) inScope = { ...inScope, [attribute.slice(6)]: value.trim() };
  }
  const xmlBase = resolveUrl(element.attribs['xml:base'], inherited.base);
  const base = xmlBase ? { base: xmlBase, hasXmlBase: true } : inherited;
  const colon = element.name.indexOf(':');
  const prefix = colon === -1 ? '' : element.name.slice(0, colon);
  const uri = inScope[prefix];
  let ns: string;
  if (uri !== undefined) ns = aliases.get(comparableUri(uri)) ?? uri;
  else ns = CONVENTIONAL_PREFIXES.has(prefix.toLowerCase()) ? prefix.toLowerCase() : prefix;
  const children =
    depth < MAX_DEPTH
      ? element.children
          .filter((child): child is Element => child.type === 'tag')
          .map((child) => toNode(child, inScope, base, depth + 1, aliases))
      : [];
  return {
    ns,
    name: element.name.slice(colon + 1).toLowerCase(),
    attrs: element.attribs,
    children,
    element,
    ...base,
  };
}

const ATOM = ['atom', ''];

function all(node: XmlNode | undefined, ns: string | string[], name: string): XmlNode[] {
  if (!node) return [];
  const spaces = typeof ns === 'string' ? [ns] : ns;
  return node.children.filter((child) => child.name === name && spaces.includes(child.ns));
}

function one(node: XmlNode | undefined, ns: string | string[], name: string): XmlNode | undefined {
  return all(node, ns, name)[0];
}

/** The text inside an element, entities decoded, CDATA included. */
function rawText(node: XmlNode | undefined): string {
  return node ? DomUtils.textContent(node.element) : '';
}

function text(node: XmlNode | undefined): string {
  return collapse(rawText(node));
}

/** An attribute's value; CDF writes its names in capitals (`HREF`), XML is case-sensitive otherwise. */
function attr(node: XmlNode | undefined, name: string): string {
  return (node?.attrs[name] ?? node?.attrs[name.toUpperCase()])?.trim() ?? '';
}

function innerMarkup(element: Element): string {
  return DomUtils.getInnerHTML(element, { xmlMode: false, encodeEntities: 'utf8' });
}

/** An element holding HTML: usually escaped or CDATA text, sometimes (broken feeds) raw markup. */
function html(node: XmlNode | undefined): string {
  if (!node) return '';
  if (node.children.length > 0) return innerMarkup(node.element).trim();
  return rawText(node).trim();
}

function firstOf(...values: string[]): string {
  return values.find((value) => value !== '') ?? '';
}

const MAX_PERSON_LENGTH = 200;

/** "jo@example.com (Jo Doe)", "Jo Doe (jo@example.com)" and "Jo Doe <jo@example.com>" all name Jo Doe. */
function personName(value: string): string {
  // Names are short; a long text is kept as is rather than matched (the patterns backtrack on it).
  if (value.length > MAX_PERSON_LENGTH) return value;
  const inParens = /^\S+@\S+\s*\((.+)\)$/.exec(value);
  if (inParens?.[1]) return inParens[1].trim();
  const addressInParens = /^(.+?)\s*\(\S+@\S+\)$/.exec(value);
  if (addressInParens?.[1]) return addressInParens[1].trim();
  const beforeAddress = /^(.+?)\s*<[^>]*@[^>]*>$/.exec(value);
  if (beforeAddress?.[1]) return beforeAddress[1].replace(/^"|"$/g, '').trim();
  return value;
}

function isImageType(type: string): boolean {
  return type.toLowerCase().startsWith('image/');
}

/** Relative links in an item's HTML resolve against xml:base when the feed sets one, else the item link. */
function contentBase(node: XmlNode | undefined, item: XmlNode, link: string): string {
  if (node?.hasXmlBase) return node.base;
  if (item.hasXmlBase) return item.base;
  return link || item.base;
}

const IMAGE_EXTENSION = /\.(?:jpe?g|png|gif|webp|avif|svg)(?:[?#]|$)/i;

// ---------------------------------------------------------------------------------------------------
// Media shared by RSS and Atom items
// ---------------------------------------------------------------------------------------------------

function mediaImage(node: XmlNode): string {
  const thumbnail = one(node, 'media', 'thumbnail');
  if (thumbnail) return resolveUrl(attr(thumbnail, 'url'), node.base);
  const contents = [...all(node, 'media', 'content')];
  for (const group of all(node, 'media', 'group')) contents.push(...all(group, 'media', 'content'));
  for (const group of all(node, 'media', 'group')) {
    const groupThumbnail = one(group, 'media', 'thumbnail');
    if (groupThumbnail) return resolveUrl(attr(groupThumbnail, 'url'), group.base);
  }
  const picture = contents.find(
    (content) =>
      attr(content, 'medium') === 'image' ||
      isImageType(attr(content, 'type')) ||
      (!attr(content, 'type') && !attr(content, 'medium') && IMAGE_EXTENSION.test(attr(content, 'url'))),
  );
  if (picture) return resolveUrl(attr(picture, 'url'), picture.base);
  const contentThumbnail = contents.map((content) => one(content, 'media', 'thumbnail')).find(Boolean);
  return contentThumbnail ? resolveUrl(attr(contentThumbnail, 'url'), contentThumbnail.base) : '';
}

function itunesImage(node: XmlNode | undefined): string {
  const image = one(node, 'itunes', 'image');
  return image ? resolveUrl(attr(image, 'href') || text(image), image.base) : '';
}

// ---------------------------------------------------------------------------------------------------
// RSS 0.9x / 1.0 / 2.0
// ---------------------------------------------------------------------------------------------------

function atomLinkIn(node: XmlNode, rel: string): string {
  const link = all(node, 'atom', 'link').find((candidate) => (attr(candidate, 'rel') || 'alternate') === rel);
  return link ? resolveUrl(attr(link, 'href'), link.base) : '';
}

function rssLink(node: XmlNode): string {
  for (const link of all(node, '', 'link')) {
    const href = resolveUrl(text(link) || attr(link, 'href'), link.base);
    if (href) return href;
  }
  // CDF: <CHANNEL HREF="…"> and <ITEM HREF="…">.
  return firstOf(atomLinkIn(node, 'alternate'), resolveUrl(attr(node, 'href'), node.base));
}

/** Media RSS's title or description of an item, on the item or in its media:group (YouTube). */
function mediaText(node: XmlNode, name: 'title' | 'description'): XmlNode | undefined {
  return (
    one(node, 'media', name) ??
    all(node, 'media', 'group')
      .map((group) => one(group, 'media', name))
      .find(Boolean) ??
    all(node, 'media', 'content')
      .map((content) => one(content, 'media', name))
      .find(Boolean)
  );
}

/** A Media RSS text as HTML: plain unless it says `type="html"`. */
function mediaHtml(node: XmlNode | undefined): string {
  if (!node) return '';
  return attr(node, 'type').toLowerCase() === 'html' ? html(node) : escapeHtml(rawText(node).trim());
}

/** A Media RSS text as plain text. */
function mediaPlain(node: XmlNode | undefined): string {
  if (!node) return '';
  return attr(node, 'type').toLowerCase() === 'html' ? htmlToText(html(node)) : text(node);
}

function rssItemImage(item: XmlNode, content: string, summary: string, baseUrl: string): string {
  const enclosure = all(item, '', 'enclosure').find(
    (candidate) =>
      isImageType(attr(candidate, 'type')) ||
      (!attr(candidate, 'type') && IMAGE_EXTENSION.test(attr(candidate, 'url'))),
  );
  return firstOf(
    enclosure ? resolveUrl(attr(enclosure, 'url'), enclosure.base) : '',
    mediaImage(item),
    itunesImage(item),
    firstImageIn(content, baseUrl),
    firstImageIn(summary, baseUrl),
  );
}

function rssItem(item: XmlNode): ParsedFeedItem {
  const description = firstOf(
    html(one(item, '', 'description')),
    html(one(item, 'itunes', 'summary')),
    mediaHtml(mediaText(item, 'description')),
    html(one(item, 'dc', 'description')),
    html(one(item, '', 'abstract')),
  );
  const content = firstOf(
    html(one(item, 'content', 'encoded')),
    atomContentHtml(one(item, 'atom', 'content')),
    description,
  );
  const guidNode = one(item, '', 'guid');
  const guid = text(guidNode);
  const guidIsLink = attr(guidNode, 'isPermaLink').toLowerCase() !== 'false';
  const author = one(item, 'atom', 'author');
  const link = firstOf(
    rssLink(item),
    guidIsLink && /^https?:\/\//i.test(guid) ? resolveUrl(guid, item.base) : '',
  );
  const baseUrl = contentBase(one(item, 'content', 'encoded') ?? one(item, '', 'description'), item, link);
  return {
    title: firstOf(
      text(one(item, '', 'title')),
      text(one(item, 'dc', 'title')),
      mediaPlain(mediaText(item, 'title')),
    ),
    link,
    content,
    summary: description,
    creator: personName(
      firstOf(
        text(one(item, 'dc', 'creator')),
        text(one(item, '', 'author')),
        text(one(item, 'dc', 'author')),
        text(one(item, 'itunes', 'author')),
        text(one(author, 'atom', 'name')),
      ),
    ),
    pubDate: firstOf(
      parseFeedDate(text(one(item, '', 'pubdate'))),
      parseFeedDate(text(one(item, 'dc', 'date'))),
      parseFeedDate(text(one(item, 'atom', 'published'))),
      parseFeedDate(text(one(item, 'atom', 'updated'))),
      parseFeedDate(text(one(item, 'dcterms', 'created'))),
      parseFeedDate(text(one(item, 'dcterms', 'modified'))),
      parseFeedDate(attr(item, 'lastmod')),
    ),
    guid: firstOf(guid, attr(item, 'rdf:about')),
    image: rssItemImage(item, content, description, baseUrl),
    baseUrl,
  };
}

function rssFeed(root: XmlNode): ParsedFeed {
  const channel = one(root, '', 'channel') ?? root;
  // RSS 1.0 and 0.90 put image and items beside the channel, not in it.
  const image = one(channel, '', 'image') ?? one(root, '', 'image');
  const items = [
    ...all(channel, '', 'item'),
    ...(channel === root ? [] : all(root, '', 'item')),
    // RSS 1.1: <items rdf:parseType="Collection"><item>….
    ...all(one(channel, '', 'items'), '', 'item'),
  ];
  return {
    title: firstOf(text(one(channel, '', 'title')), text(one(channel, 'dc', 'title'))),
    link: rssLink(channel),
    description: firstOf(
      text(one(channel, '', 'description')),
      text(one(channel, 'itunes', 'subtitle')),
      text(one(channel, 'itunes', 'summary')),
      text(one(channel, 'dc', 'description')),
      text(one(channel, '', 'abstract')),
    ),
    image: firstOf(
      image ? resolveUrl(text(one(image, '', 'url')) || attr(image, 'rdf:resource'), image.base) : '',
      itunesImage(channel),
      mediaImage(channel),
    ),
    icon: resolveUrl(text(one(channel, 'atom', 'icon')), channel.base),
    items: items.map(rssItem),
  };
}

// ---------------------------------------------------------------------------------------------------
// Atom 0.3 / 1.0
// ---------------------------------------------------------------------------------------------------

/** Atom content or summary as HTML: `text` is escaped, `html` is kept, `xhtml` is serialised. */
function atomContentHtml(node: XmlNode | undefined): string {
  if (!node || attr(node, 'src')) return '';
  const type = (attr(node, 'type') || 'text').toLowerCase();
  const mode = attr(node, 'mode').toLowerCase();
  if (mode === 'base64') {
    const decoded = Buffer.from(rawText(node).trim(), 'base64').toString('utf8');
    return type.includes('html') ? decoded : escapeHtml(decoded);
  }
  if (type === 'xhtml' || type.includes('xhtml') || mode === 'xml') {
    const [only] = node.children;
    const wrapper = node.children.length === 1 && only?.name === 'div' ? only : node;
    if (wrapper.children.length === 0 && wrapper === node) return escapeHtml(rawText(node).trim());
    return innerMarkup(wrapper.element).trim();
  }
  if (type === 'html' || type.includes('html') || mode === 'escaped') return html(node);
  if (type === 'text' || type.startsWith('text/')) {
    return node.children.length > 0 ? html(node) : escapeHtml(rawText(node).trim());
  }
  return '';
}

/** An Atom text construct (title, subtitle) as plain text. */
function atomText(node: XmlNode | undefined): string {
  if (!node) return '';
  const type = (attr(node, 'type') || 'text').toLowerCase();
  const mode = attr(node, 'mode').toLowerCase();
  // Atom 0.3 modes: base64 and escaped need decoding whatever the type.
  if ((type === 'text' || type === 'text/plain') && mode !== 'base64' && mode !== 'escaped')
    return text(node);
  return collapse(htmlToText(atomContentHtml(node)));
}

function atomLink(node: XmlNode): string {
  const links = all(node, ATOM, 'link');
  const alternates = links.filter((link) => (attr(link, 'rel') || 'alternate') === 'alternate');
  const best =
    alternates.find((link) => attr(link, 'type').includes('html')) ??
    alternates[0] ??
    links.find((link) => !['self', 'enclosure', 'replies', 'edit', 'hub'].includes(attr(link, 'rel')));
  return best ? resolveUrl(attr(best, 'href'), best.base) : '';
}

function atomAuthor(node: XmlNode | undefined): string {
  const author = one(node, ATOM, 'author');
  return firstOf(text(one(author, ATOM, 'name')), text(one(author, ATOM, 'email')));
}

function atomEntry(entry: XmlNode, feed: XmlNode): ParsedFeedItem {
  const summary = firstOf(
    atomContentHtml(one(entry, ATOM, 'summary')),
    mediaHtml(mediaText(entry, 'description')),
  );
  const content = firstOf(atomContentHtml(one(entry, ATOM, 'content')), summary);
  const enclosure = all(entry, ATOM, 'link').find(
    (link) =>
      attr(link, 'rel') === 'enclosure' &&
      (isImageType(attr(link, 'type')) || (!attr(link, 'type') && IMAGE_EXTENSION.test(attr(link, 'href')))),
  );
  const id = text(one(entry, ATOM, 'id'));
  const link = firstOf(atomLink(entry), /^https?:\/\//i.test(id) ? resolveUrl(id, entry.base) : '');
  const baseUrl = contentBase(one(entry, ATOM, 'content') ?? one(entry, ATOM, 'summary'), entry, link);
  return {
    title: firstOf(atomText(one(entry, ATOM, 'title')), mediaPlain(mediaText(entry, 'title'))),
    link,
    content,
    summary,
    // RFC 4287 §4.2.1: an entry without an author has its source's or its feed's.
    creator: firstOf(
      atomAuthor(entry),
      text(one(entry, 'dc', 'creator')),
      atomAuthor(one(entry, ATOM, 'source')),
      atomAuthor(feed),
    ),
    pubDate: firstOf(
      parseFeedDate(text(one(entry, ATOM, 'published'))),
      parseFeedDate(text(one(entry, ATOM, 'issued'))),
      parseFeedDate(text(one(entry, ATOM, 'updated'))),
      parseFeedDate(text(one(entry, ATOM, 'modified'))),
      parseFeedDate(text(one(entry, ATOM, 'created'))),
      parseFeedDate(text(one(entry, 'dc', 'date'))),
    ),
    guid: id,
    image: firstOf(
      enclosure ? resolveUrl(attr(enclosure, 'href'), enclosure.base) : '',
      mediaImage(entry),
      itunesImage(entry),
      firstImageIn(content, baseUrl),
      firstImageIn(summary, baseUrl),
    ),
    baseUrl,
  };
}

function atomFeed(root: XmlNode): ParsedFeed {
  const logo = one(root, ATOM, 'logo');
  const icon = one(root, ATOM, 'icon');
  return {
    title: atomText(one(root, ATOM, 'title')),
    link: atomLink(root),
    description: firstOf(atomText(one(root, ATOM, 'subtitle')), atomText(one(root, ATOM, 'tagline'))),
    image: firstOf(resolveUrl(text(logo), logo?.base ?? root.base), itunesImage(root)),
    icon: resolveUrl(text(icon), icon?.base ?? root.base),
    items: all(root, ATOM, 'entry').map((entry) => atomEntry(entry, root)),
  };
}

/** The feed in an XML document, or undefined when its root is not RSS, RDF or Atom. */
export function readXmlFeed(document: Document, url: string): ParsedFeed | undefined {
  const rootElement = document.children.find((child): child is Element => child.type === 'tag');
  if (!rootElement) return undefined;
  let root = toNode(rootElement, {}, { base: url, hasXmlBase: false }, 0);
  if (root.name === 'rss' && !KNOWN_KEYS.has(root.ns) && rootElement.attribs.xmlns) {
    // RSS in a default namespace of its own: that namespace is RSS's for this document.
    const aliases = new Map(NAMESPACE_KEYS).set(comparableUri(root.ns), '');
    root = toNode(rootElement, {}, { base: url, hasXmlBase: false }, 0, aliases);
  }
  if (root.name === 'feed' && ATOM.includes(root.ns)) return atomFeed(root);
  if ((root.name === 'rss' || root.name === 'channel') && root.ns === '') return rssFeed(root);
  if (root.name === 'rdf' && root.ns === 'rdf') return rssFeed(root);
  return undefined;
}
