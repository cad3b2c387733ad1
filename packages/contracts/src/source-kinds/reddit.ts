import * as z from 'zod/mini';
import { discussionConditions, filtersItems, reaches } from './conditions';
import { common, count, images, inputSchema, layout, onlyNew, postBody } from './fields';
import { type ItemDiscussion, listItems, rememberedList, type SourceKind } from './source-kind';

export interface RedditPost {
  id: string;
  /** The post's page on Reddit (its discussion). */
  url: string;
  /** What a link post links to; absent for a text post. */
  link?: string;
  /** Other sources of the digest that had the same link, when this issue shows it once. */
  discussions?: ItemDiscussion[];
  /**
   * null when unknown: read from the subreddit's public feed (Reddit refusing this server its API), a post
   * has no score or comment count. Issues stored before counts could be unknown always have numbers.
   */
  ups: number | null;
  numComments: number | null;
  title: string;
  /** Sanitised HTML of the self text, cut per `postBody`. */
  selfText: string;
  image: string;
}

export interface RedditContent {
  subreddit: string;
  posts: RedditPost[];
}

/** docs/product.md §3 subreddit list entry. */
export interface Subreddit {
  name: string;
  description: string;
  subscribers: number;
  url: string;
  icon: string;
}

/** A subreddit name without the r/ prefix (Reddit allows 2–21 letters, digits and underscores). */
export const subredditNameSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Subreddit is required' }).check(z.trim()),
    z.transform((value: string) => value.replace(/^\/?r\//i, '')),
  ),
  z.string().check(
    z.regex(/^[A-Za-z0-9_]{2,21}$/, {
      error: 'Subreddit must be 2 to 21 letters, digits or underscores, without r/',
    }),
  ),
);

const LABEL = 'Reddit';
const COUNT = { max: 10, default: 6 } as const;

const redditShape = {
  type: z.literal('REDDIT'),
  ...common(''),
  sourceName: subredditNameSchema,
  numberOfPosts: count(COUNT.max, COUNT.default),
  images: images('show'),
  postBody: postBody('paragraph'),
  layout: layout(2),
  onlyNew: onlyNew(),
  conditions: discussionConditions(COUNT.max),
};

export const redditSourceSchema = inputSchema(redditShape);
export type RedditSource = z.output<typeof redditSourceSchema>;

export const redditKind = {
  type: 'REDDIT',
  label: LABEL,
  schema: redditSourceSchema,
  storedSchema: z.object({ ...redditShape, sourceName: z.string() }),
  category: 'socials',
  popular: true,
  dataPath: 'reddit',
  accountProvider: null,
  readsPrivateData: false,
  searched: true,
  count: COUNT,
  icon: { key: 'reddit', label: 'Reddit' },
  title: (source) => `r/${source.sourceName}`,
  hasNews: (content) => content.posts.length > 0,
  items: listItems<RedditContent>('posts'),
  conditions: {
    keep: (source, content) =>
      filtersItems(source.conditions)
        ? {
            ...content,
            posts: content.posts.filter((post) =>
              reaches({ points: post.ups, comments: post.numComments }, source.conditions),
            ),
          }
        : content,
  },
  remembers: rememberedList<RedditContent, RedditSource>(
    'posts',
    (source) => source.sourceName.toLowerCase(),
    (post) => ({ guid: post.id, link: post.link ?? post.url, title: post.title, discussion: post.url }),
  ),
} as const satisfies SourceKind<RedditContent, RedditSource>;
