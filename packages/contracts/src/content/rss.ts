/** SPEC §3 RSS item; DESIGN §5 fixes the `/api/data-sources/rss/feed` answer as `{ feed, items }`. */
export interface RssItem {
  title: string;
  /** Sanitised HTML, cut to the first paragraph for 'paragraph', '' for 'hide'. */
  content: string;
  creator: string;
  link: string;
  /** ISO 8601, or '' when the feed gives no date. */
  pubDate: string;
  /** First image of the item (enclosure, media:thumbnail or first <img>), '' when images are hidden. */
  image: string;
}

export interface RssFeedInfo {
  title: string;
  link: string;
  favicon: string;
}

export interface RssContent {
  feed: RssFeedInfo;
  items: RssItem[];
}

/** SPEC §3 search result: the RSS list with search. */
export interface SearchResult {
  title: string;
  description: string;
  platformId: string;
  customProps: { favicon: string };
}
