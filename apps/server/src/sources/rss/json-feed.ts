/** JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), read field by field without trusting types. */
import { escapeHtml } from '#server/platform/sanitize-html';
import { parseFeedDate } from './feed-dates';
import { collapse, firstImageIn, type ParsedFeed, type ParsedFeedItem, resolveUrl } from './feed-model';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function str(object: JsonObject, key: string): string {
  const value = object[key];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return '';
}

/** 1.1 `authors` (array) first, then 1.0 `author` (object). */
function authorName(object: JsonObject): string {
  const authors = Array.isArray(object.authors) ? object.authors.filter(isObject) : [];
  const author = authors[0] ?? (isObject(object.author) ? object.author : undefined);
  return author ? str(author, 'name') : '';
}

function jsonItem(item: JsonObject, feed: JsonObject, base: string): ParsedFeedItem {
  const link = resolveUrl(str(item, 'url'), base) || resolveUrl(str(item, 'external_url'), base);
  const text = str(item, 'content_text');
  const content = str(item, 'content_html') || (text ? escapeHtml(text) : '');
  const summary = str(item, 'summary') ? escapeHtml(str(item, 'summary')) : '';
  return {
    title: collapse(str(item, 'title')),
    link,
    content: content || summary,
    summary,
    creator: authorName(item) || authorName(feed),
    pubDate: parseFeedDate(str(item, 'date_published')) || parseFeedDate(str(item, 'date_modified')),
    guid: str(item, 'id'),
    image:
      resolveUrl(str(item, 'image'), base) ||
      resolveUrl(str(item, 'banner_image'), base) ||
      firstImageIn(content, link || base),
    baseUrl: link || base,
  };
}

/** The feed in a parsed JSON document, or undefined when it is not a JSON Feed. */
export function readJsonFeed(document: unknown, url: string): ParsedFeed | undefined {
  // The version should be a jsonfeed.org URL, but feeds write "1.0" too: an items array is enough.
  const isJsonFeed =
    isObject(document) &&
    (/^https?:\/\/jsonfeed\.org\/version\//.test(str(document, 'version')) || Array.isArray(document.items));
  if (!isJsonFeed) return undefined;
  const items = Array.isArray(document.items) ? document.items.filter(isObject) : [];
  return {
    title: collapse(str(document, 'title')),
    link: resolveUrl(str(document, 'home_page_url'), url),
    description: collapse(str(document, 'description')),
    image: resolveUrl(str(document, 'icon'), url),
    icon: resolveUrl(str(document, 'favicon'), url),
    items: items.map((item) => jsonItem(item, document, url)),
  };
}
