import * as z from 'zod/mini';
import { listConditions } from './conditions';
import {
  common,
  count,
  httpUrl,
  images,
  inputSchema,
  layout,
  onlyNew,
  pictureUrl,
  postBody,
  SOURCE_NAME_MAX_LENGTH,
  text,
} from './fields';
import { type ItemDiscussion, listItems, rememberedList, type SourceKind } from './source-kind';

/** docs/product.md §3 RSS item; docs/design.md §5 fixes the `/api/data-sources/rss/feed` answer as `{ feed, items }`. */
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
  /** The feed's id of the item (RSS guid, Atom id, JSON Feed id), when it gives one. */
  guid?: string;
  /** Other sources of the digest that had the same link, when this issue shows it once. */
  discussions?: ItemDiscussion[];
}

export interface RssFeedInfo {
  title: string;
  link: string;
  favicon: string;
  /**
   * The feed's own address: the one asked for, or, when that was a web page, the feed the page announces.
   * A source saves this one as its `feedLink`, so later fetches skip the page.
   */
  url: string;
  /**
   * Where the feed's address answered a permanent redirect (301/308) to, when it did: the feed moved, and
   * its digests follow it after a while (issue 17 "Source health").
   */
  movedTo?: string;
}

export interface RssContent {
  feed: RssFeedInfo;
  items: RssItem[];
}

/** docs/product.md §3 search result: the RSS list with search. */
export interface SearchResult {
  title: string;
  description: string;
  platformId: string;
  /** `pageUrl`: the web page a pasted address was, when the result is the feed that page announces. */
  customProps: { favicon: string; pageUrl?: string };
}

const LABEL = 'RSS';
const COUNT = { max: 50, default: 6 } as const;

const rssShape = {
  type: z.literal('RSS'),
  ...common(''),
  feedLink: httpUrl('Feed link'),
  sourceName: z._default(text(SOURCE_NAME_MAX_LENGTH), ''),
  favicon: pictureUrl(),
  numberOfPosts: count(COUNT.max, COUNT.default),
  images: images('show'),
  postBody: postBody('paragraph'),
  layout: layout(2),
  onlyNew: onlyNew(),
  /**
   * The web page the user gave, when its feed was found through it: shown as the source's address, never
   * fetched (`feedLink` is the feed it announced). Sources saved before it existed have none. Last, where
   * the compiled response serialiser writes an optional setting, so its answer matches zod's.
   */
  pageUrl: z.optional(httpUrl('Page link')),
  conditions: listConditions(COUNT.max),
};

/** Post content 'hide' forces images 'hide'. */
export const rssSourceSchema = inputSchema(rssShape, (settings) =>
  settings.postBody === 'hide' ? { ...settings, images: 'hide' } : settings,
);
export type RssSource = z.output<typeof rssSourceSchema>;

export const rssKind = {
  type: 'RSS',
  label: LABEL,
  schema: rssSourceSchema,
  storedSchema: z.object(rssShape),
  category: 'news',
  popular: true,
  dataPath: 'rss',
  accountProvider: null,
  readsPrivateData: false,
  searched: true,
  count: COUNT,
  icon: { key: 'rss', label: 'RSS feed' },
  title: (source, content) => source.sourceName || content?.feed.title || LABEL,
  hasNews: (content) => content.items.length > 0,
  items: listItems<RssContent>('items'),
  remembers: rememberedList<RssContent, RssSource>(
    'items',
    // The page when the feed was found through it: a source saved with a page keeps its key when its first
    // issue saves the feed the page announced, so that items are not taken for new ones.
    (source) => source.pageUrl ?? source.feedLink,
    (item) => ({ guid: item.guid, link: item.link, title: item.title, date: item.pubDate }),
  ),
} as const satisfies SourceKind<RssContent, RssSource>;
