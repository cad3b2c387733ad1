import * as z from 'zod/mini';
import { listConditions } from './conditions';
import {
  common,
  count,
  flag,
  id,
  images,
  inputSchema,
  layout,
  onlyNew,
  pictureUrl,
  TEXT_MAX,
  text,
  uniqueOptions,
} from './fields';
import { listItems, rememberedList, type SourceKind } from './source-kind';

export interface TweetMedia {
  type: 'photo' | 'video' | 'animated_gif';
  url: string;
  previewUrl: string;
}

export interface TweetUser {
  twitterUserId: string;
  fullName: string;
  username: string;
  image: string;
  followersCount: number;
}

export interface Tweet {
  id: string;
  text: string;
  url: string;
  user: TweetUser;
  media: TweetMedia[];
  likesCount: number;
  retweetsCount: number;
  date: string;
  referencedTweets: { type: 'retweeted' | 'quoted' | 'replied_to'; id: string }[];
  isRetweeted: boolean;
  isQuoted: boolean;
  isReplied: boolean;
}

export interface TwitterContent {
  tweets: Tweet[];
}

/** docs/product.md §3 Twitter list. */
export interface TwitterList {
  listId: string;
  listName: string;
}

export const TWEET_TYPES = ['latest', 'popular'] as const;
export type TweetType = (typeof TWEET_TYPES)[number];

export const TWEET_TYPE_OPTIONS = [
  { value: 'latest', label: 'Latest' },
  { value: 'popular', label: 'Popular' },
] as const;

const tweetType = (fallback: TweetType) =>
  z._default(z.enum(TWEET_TYPES, { error: "Tweet type must be 'latest' or 'popular'" }), fallback);

const twitterUserSchema = z.strictObject({
  twitterUserId: id('Twitter user id'),
  fullName: z._default(text(200), ''),
  username: id('Twitter username'),
  image: pictureUrl(),
  followersCount: z.optional(z.number().check(z.int(), z.gte(0))),
});

const twitterAccount = {
  tokenId: id('Twitter account'),
  /** The connected account's username. */
  username: z._default(text(200), ''),
};

const TWEETS_LABEL = 'Twitter tweets';
const TWEETS_COUNT = { max: 50, default: 6 } as const;

const twitterTweetsShape = {
  type: z.literal('TWITTER_TWEETS'),
  ...common(TWEETS_LABEL),
  ...twitterAccount,
  includeRetweets: flag(),
  limit: count(TWEETS_COUNT.max, TWEETS_COUNT.default, 'Number of tweets'),
  numberOfTweetsPerUser: count(TWEETS_COUNT.max, 3, 'Tweets per user'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('popular'),
  onlyNew: onlyNew(),
  twitterUsers: z.optional(z.array(twitterUserSchema).check(z.maxLength(100))),
  conditions: listConditions(TWEETS_COUNT.max),
};

const TIMELINE_LABEL = 'Twitter timeline';
const TIMELINE_COUNT = { max: 50, default: 6 } as const;

const twitterTimelineShape = {
  type: z.literal('TWITTER_TIMELINE'),
  ...common(TIMELINE_LABEL),
  ...twitterAccount,
  includeRetweets: flag(),
  limit: count(TIMELINE_COUNT.max, TIMELINE_COUNT.default, 'Number of tweets'),
  numberOfTweetsPerUser: count(TIMELINE_COUNT.max, 3, 'Tweets per user'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('popular'),
  onlyNew: onlyNew(),
  conditions: listConditions(TIMELINE_COUNT.max),
};

const SEARCH_LABEL = 'Twitter search';
const SEARCH_COUNT = { max: 20, default: 5 } as const;

const twitterSearchShape = {
  type: z.literal('TWITTER_SEARCH'),
  ...common(SEARCH_LABEL),
  ...twitterAccount,
  /** docs/product.md §5: the first word must be longer than 2 characters. */
  search: z.string({ error: 'Search phrase is required' }).check(
    z.trim(),
    z.maxLength(TEXT_MAX),
    z.refine((value) => (value.split(/\s+/)[0] ?? '').length > 2, {
      error: 'Search phrase must start with a word of more than 2 characters',
    }),
  ),
  limit: count(SEARCH_COUNT.max, SEARCH_COUNT.default, 'Number of tweets'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('latest'),
  hideRetweets: flag(),
  hideReplies: flag(),
  linksOnly: flag(),
  imagesOnly: flag(),
  onlyNew: onlyNew(),
  conditions: listConditions(SEARCH_COUNT.max),
};

const LIST_LABEL = 'Twitter list';
const LIST_COUNT = { max: 50, default: 8 } as const;

const twitterListShape = {
  type: z.literal('TWITTER_LIST'),
  ...common(LIST_LABEL),
  ...twitterAccount,
  listId: id('List'),
  listName: z._default(text(200), ''),
  includeRetweets: flag(),
  limit: count(LIST_COUNT.max, LIST_COUNT.default, 'Number of tweets'),
  numberOfTweetsPerUser: count(LIST_COUNT.max, 4, 'Tweets per user'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('latest'),
  onlyNew: onlyNew(),
  conditions: listConditions(LIST_COUNT.max),
};

/** One entry per user (names differing in case only are the same user). */
export const twitterTweetsSourceSchema = inputSchema(twitterTweetsShape, (settings) =>
  uniqueOptions(settings, 'twitterUsers', (user) => String(user.username).toLowerCase()),
);
export const twitterTimelineSourceSchema = inputSchema(twitterTimelineShape);
export const twitterSearchSourceSchema = inputSchema(twitterSearchShape);
export const twitterListSourceSchema = inputSchema(twitterListShape);

export type TwitterTweetsSource = z.output<typeof twitterTweetsSourceSchema>;
export type TwitterTimelineSource = z.output<typeof twitterTimelineSourceSchema>;
export type TwitterSearchSource = z.output<typeof twitterSearchSourceSchema>;
export type TwitterListSource = z.output<typeof twitterListSourceSchema>;

/** The four X/Twitter kinds: one connected account, one content shape, one badge. */
const twitter = {
  category: 'socials',
  dataPath: 'twitter',
  accountProvider: 'TWITTER',
  searched: false,
  hasNews: (content: TwitterContent) => content.tweets.length > 0,
  items: listItems<TwitterContent>('tweets'),
} as const;

/** Tweets are told apart by their id; `sourceKey` names whose tweets the block reads. */
const rememberedTweets = <Settings>(sourceKey: (settings: Settings) => string) =>
  rememberedList<TwitterContent, Settings>('tweets', sourceKey, (tweet) => ({
    guid: tweet.id,
    link: tweet.url,
    title: tweet.text,
    date: tweet.date,
  }));

export const twitterTweetsKind = {
  ...twitter,
  type: 'TWITTER_TWEETS',
  label: TWEETS_LABEL,
  schema: twitterTweetsSourceSchema,
  storedSchema: z.object(twitterTweetsShape),
  popular: true,
  count: TWEETS_COUNT,
  icon: { key: 'twitter', label: 'Tweets' },
  title: () => TWEETS_LABEL,
  remembers: rememberedTweets<TwitterTweetsSource>((source) =>
    (source.twitterUsers ?? []).map((user) => user.twitterUserId).join(','),
  ),
  // Read with the owner's token, a user's tweets include those of protected accounts the owner follows.
  readsPrivateData: true,
} as const satisfies SourceKind<TwitterContent, TwitterTweetsSource>;

export const twitterTimelineKind = {
  ...twitter,
  type: 'TWITTER_TIMELINE',
  label: TIMELINE_LABEL,
  schema: twitterTimelineSourceSchema,
  storedSchema: z.object(twitterTimelineShape),
  popular: false,
  count: TIMELINE_COUNT,
  icon: { key: 'twitter', label: 'Twitter timeline' },
  title: () => TIMELINE_LABEL,
  remembers: rememberedTweets<TwitterTimelineSource>((source) => source.tokenId),
  // The owner's home timeline: who they follow and what those accounts (protected ones too) posted.
  readsPrivateData: true,
} as const satisfies SourceKind<TwitterContent, TwitterTimelineSource>;

export const twitterSearchKind = {
  ...twitter,
  type: 'TWITTER_SEARCH',
  label: SEARCH_LABEL,
  schema: twitterSearchSourceSchema,
  storedSchema: z.object({ ...twitterSearchShape, search: z.string() }),
  popular: false,
  count: SEARCH_COUNT,
  icon: { key: 'twitter', label: 'Twitter search' },
  title: () => SEARCH_LABEL,
  remembers: rememberedTweets<TwitterSearchSource>((source) => source.search),
  // X's recent search answers public tweets only, whoever's token asks.
  readsPrivateData: false,
} as const satisfies SourceKind<TwitterContent, TwitterSearchSource>;

export const twitterListKind = {
  ...twitter,
  type: 'TWITTER_LIST',
  label: LIST_LABEL,
  schema: twitterListSourceSchema,
  storedSchema: z.object(twitterListShape),
  popular: false,
  count: LIST_COUNT,
  icon: { key: 'twitter', label: 'Twitter list' },
  title: (source) => source.listName || LIST_LABEL,
  remembers: rememberedTweets<TwitterListSource>((source) => source.listId),
  // The owner's lists may be private ones, and read with their token they show protected accounts.
  readsPrivateData: true,
} as const satisfies SourceKind<TwitterContent, TwitterListSource>;
