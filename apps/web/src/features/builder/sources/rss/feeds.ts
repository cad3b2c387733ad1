import { rssSourceSchema, type SourceInputOf } from '@digest/contracts';
import type { RssFeedInfo, SearchResult } from '@digest/contracts/content';

type RssValues = Partial<SourceInputOf<'RSS'>>;

/** The pasted text as a feed address (an http(s) URL, by the RSS settings' own rule), or null. */
export function feedAddress(text: string): string | null {
  const parsed = rssSourceSchema._zod.def.in.shape.feedLink.safeParse(text.trim());
  return parsed.success ? parsed.data : null;
}

/**
 * A pasted address that answered with a feed, offered as a result like the listed feeds. A web page's
 * result is the feed the page announces (`feed.url`), with the page kept to show: the source then reads
 * the feed directly, never the page again.
 */
export function pastedFeedResult(url: string, feed: RssFeedInfo): SearchResult {
  const pageUrl = feed.url && feed.url !== url ? url : undefined;
  return {
    title: feed.title || url,
    description: url,
    platformId: feed.url || url,
    customProps: pageUrl ? { favicon: feed.favicon, pageUrl } : { favicon: feed.favicon },
  };
}

/** The settings a picked feed gives an RSS block: where to read it, the page it came from, its title and icon. */
export function feedSettings(
  result: SearchResult,
): Pick<RssValues, 'feedLink' | 'pageUrl' | 'sourceName' | 'favicon'> {
  return {
    feedLink: result.platformId,
    // Another feed picked after a page drops that page.
    pageUrl: result.customProps.pageUrl,
    sourceName: result.title,
    favicon: result.customProps.favicon || null,
  };
}

/** The address a source shows: the page it was found through, else the feed itself. */
export function shownAddress(values: RssValues): string | undefined {
  return values.pageUrl || values.feedLink;
}

/**
 * docs/product.md §5: post content Hide forces images Hide. The RSS schema applies it to what is saved; the form
 * shows it (the images choice locked) with this.
 */
export function imagesForcedHidden(values: RssValues): boolean {
  return values.postBody === 'hide';
}
