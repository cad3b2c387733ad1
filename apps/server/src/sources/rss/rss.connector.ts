import type { ImagesOption, PostBodyOption } from '@digest/contracts';
import type { RssContent, RssItem } from '@digest/contracts/content';
import { firstParagraph, sanitizeHtml } from '#server/platform/sanitize-html';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import type { ProviderTextResponse } from '#server/sources/provider-http';
import { SourceError } from '#server/sources/source-error';
import { findFeedLinks } from './feed-discovery';
import { decodeFeedBody, isHtmlPage, type ParsedFeed, type ParsedFeedItem, parseFeed } from './feed-parser';

/** What `GET /api/data-sources/rss/feed` and an RSS block ask for (docs/product.md §7 url, limit, image, body). */
export interface FeedRequest {
  url: string;
  limit: number;
  image: ImagesOption;
  body: PostBodyOption;
  /**
   * A catch-up issue's window: only items published in it (an item without a readable date is left out,
   * since nothing says it came while the digest was paused), still at most `limit`.
   */
  window?: { since: Date; until: Date } | undefined;
}

const PROVIDER = 'The feed';

/** Feeds change every few minutes to hours; many digests share one (the cache fetches it once). */
const FEED_CACHE = { defaultSeconds: 900, minSeconds: 300, maxSeconds: 3600 };

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.8, */*;q=0.5';

/** Where a feed is read from: its own address, or the mirror's copy of it when FEED_MIRROR_URL is set. */
export function feedFetchUrl(url: string, mirror: string | undefined): string {
  if (!mirror) return url;
  const target = new URL(url);
  if (target.host === new URL(mirror).host) return url;
  return `${mirror}/${target.host}${target.pathname}${target.search}`;
}

function fetchFeedAnswer(deps: SourcesDeps, url: string): Promise<ProviderTextResponse> {
  return deps.http.text({
    provider: PROVIDER,
    url: feedFetchUrl(url, deps.providers.baseUrls.feedMirror),
    headers: { accept: ACCEPT },
    cache: FEED_CACHE,
  });
}

/**
 * Parsed feeds by the body they were parsed from. The content cache answers every hit with the very
 * buffer it holds, so a feed read by thousands of digests in a burst is parsed once per fetch instead of
 * once per digest (parsing and sanitising were a tenth of a burst worker's CPU). Keyed weakly: an entry
 * goes when the cache lets its body go, and a new fetch is a new buffer, so it is never stale.
 */
const parsedFeeds = new WeakMap<Buffer, ParsedFeed>();

function parsedFeedOf(answer: ProviderTextResponse, text?: string): ParsedFeed {
  let feed = parsedFeeds.get(answer.bytes);
  if (!feed) {
    feed = parseFeed(text ?? answer.bytes, { url: answer.url, contentType: answer.contentType });
    parsedFeeds.set(answer.bytes, feed);
  }
  return feed;
}

/** A feed as read: the feed, where it answered from (after redirects), and its own address. */
interface LoadedFeed {
  feed: ParsedFeed;
  /** Where the answer came from, after redirects: what relative links resolve against. */
  url: string;
  /** The address asked for, or the feed a page at that address announced: what a source should save. */
  feedUrl: string;
  /** Where the address asked for moved for good, when it was read itself (not through a mirror or a page). */
  movedTo?: string;
}

/**
 * The feed at `url`. When the address answers a web page, the first feed the page announces is read
 * instead — one hop only: a linked address that is a page again is refused, never followed. The feed is
 * shared by every caller that read the same answer: it must not be changed.
 */
export async function loadFeed(deps: SourcesDeps, url: string): Promise<LoadedFeed> {
  const answer = await fetchFeedAnswer(deps, url);
  // A mirror's redirects say where its copy is, not where the feed moved.
  const moved =
    answer.movedTo && feedFetchUrl(url, deps.providers.baseUrls.feedMirror) === url
      ? { movedTo: answer.movedTo }
      : {};
  if (parsedFeeds.has(answer.bytes))
    return { feed: parsedFeedOf(answer), url: answer.url, feedUrl: url, ...moved };
  const text = decodeFeedBody(answer.bytes, answer.contentType);
  if (!isHtmlPage(text, answer.contentType)) {
    return { feed: parsedFeedOf(answer, text), url: answer.url, feedUrl: url, ...moved };
  }
  const [feedUrl] = findFeedLinks(text, answer.url);
  if (!feedUrl) throw new SourceError('not_found', 'No feed found at this address');
  const linked = await fetchFeedAnswer(deps, feedUrl);
  return { feed: parsedFeedOf(linked), url: linked.url, feedUrl };
}

/** The site's /favicon.ico, the icon browsers fall back to as well. */
function siteFavicon(siteUrl: string): string {
  return `${new URL(siteUrl).origin}/favicon.ico`;
}

/**
 * Sanitised HTML without its pictures ('images: hide'). sanitize-html writes every tag the same way
 * (`<img src="…">`, attribute values escaped), so its output can be matched reliably; links and
 * figures left empty by the removal go too.
 */
function withoutImages(sanitised: string): string {
  return sanitised
    .replace(/<img\b[^>]*>/g, '')
    .replace(/<a\b[^>]*>\s*<\/a>/g, '')
    .replace(/<(figure|p)>\s*<\/\1>/g, '')
    .trim();
}

function itemContent(item: ParsedFeedItem, request: FeedRequest, images: ImagesOption): string {
  const html = item.content || item.summary;
  const { baseUrl } = item;
  let content: string;
  if (request.body === 'full') content = sanitizeHtml(html, { baseUrl });
  else if (request.body === 'paragraph') content = firstParagraph(html, { baseUrl });
  else return '';
  return images === 'hide' ? withoutImages(content) : content;
}

function rssItem(item: ParsedFeedItem, request: FeedRequest): RssItem {
  // docs/product.md §5: content 'hide' forces images 'hide'.
  const images = request.body === 'hide' ? 'hide' : request.image;
  return {
    title: item.title,
    content: itemContent(item, request, images),
    creator: item.creator,
    link: item.link,
    pubDate: item.pubDate,
    image: images === 'show' ? item.image : '',
    ...(item.guid ? { guid: item.guid } : {}),
  };
}

function publishedIn(item: ParsedFeedItem, window: { since: Date; until: Date }): boolean {
  const published = Date.parse(item.pubDate);
  return published > window.since.getTime() && published <= window.until.getTime();
}

/**
 * A block's content per parsed feed and options: digests with the same feed and settings share one, so its
 * items are sanitised once per fetch (see `parsedFeeds`). Weakly keyed by the parsed feed, it goes with it.
 */
const feedContents = new WeakMap<ParsedFeed, Map<string, RssContent>>();

/**
 * docs/design.md §5 `{ feed: { title, link, favicon }, items }`: the feed's first `limit` items (feeds list
 * newest first), options applied. Callers with the same answer and options share the object: read only.
 */
export async function fetchFeed(deps: SourcesDeps, request: FeedRequest): Promise<RssContent> {
  const { feed, url, feedUrl, movedTo } = await loadFeed(deps, request.url);
  const { window } = request;
  const windowKey = window ? ` ${window.since.toISOString()}/${window.until.toISOString()}` : '';
  const key = `${request.limit} ${request.image} ${request.body} ${url} ${feedUrl} ${movedTo ?? ''}${windowKey}`;
  let contents = feedContents.get(feed);
  if (!contents) {
    contents = new Map();
    feedContents.set(feed, contents);
  }
  let content = contents.get(key);
  if (!content) {
    const site = feed.link || url;
    content = {
      feed: {
        title: feed.title,
        link: site,
        favicon: feed.icon || feed.image || siteFavicon(site),
        url: feedUrl,
        ...(movedTo ? { movedTo } : {}),
      },
      items: (window ? feed.items.filter((item) => publishedIn(item, window)) : feed.items)
        .slice(0, request.limit)
        .map((item) => rssItem(item, request)),
    };
    contents.set(key, content);
  }
  return content;
}

export function rssConnector(deps: SourcesDeps): Connector<'RSS'> {
  return {
    type: 'RSS',
    fetchContent: (source, context) =>
      fetchFeed(deps, {
        url: source.feedLink,
        limit: source.numberOfPosts,
        image: source.images,
        body: source.postBody,
        window: context.window,
      }),
  };
}
