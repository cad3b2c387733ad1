import { rssSourceSchema, type SourceInputOf } from '@digest/contracts';
import type { RssFeedInfo, SearchResult } from '@digest/contracts/content';

type RssValues = Partial<SourceInputOf<'RSS'>>;

/** The pasted text as a feed address (an http(s) URL, by the RSS settings' own rule), or null. */
export function feedAddress(text: string): string | null {
  const parsed = rssSourceSchema.in.shape.feedLink.safeParse(text.trim());
  return parsed.success ? parsed.data : null;
}

/** A pasted address that answered with a feed, offered as a result like the listed feeds. */
export function pastedFeedResult(url: string, feed: RssFeedInfo): SearchResult {
  return {
    title: feed.title || url,
    description: url,
    platformId: url,
    customProps: { favicon: feed.favicon },
  };
}

/** The settings a picked feed gives an RSS block: where to read it, its title and its icon. */
export function feedSettings(result: SearchResult): Pick<RssValues, 'feedLink' | 'sourceName' | 'favicon'> {
  return {
    feedLink: result.platformId,
    sourceName: result.title,
    favicon: result.customProps.favicon || null,
  };
}

/**
 * docs/product.md §5: post content Hide forces images Hide. The RSS schema applies it to what is saved; the form
 * shows it (the images choice locked) with this.
 */
export function imagesForcedHidden(values: RssValues): boolean {
  return values.postBody === 'hide';
}
