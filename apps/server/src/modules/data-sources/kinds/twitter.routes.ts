import { IMAGE_OPTIONS, SOURCE_POST_LIMITS, TWEET_TYPES } from '@digest/contracts';
import type { Tweet, TweetUser, TwitterList } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '#server/platform/http/auth';
import { twitterReader } from '#server/sources/twitter/twitter.connector';
import type { DataSourceRoutesDeps } from '../data-sources.deps';
import { queryFlag } from '../query-params';

const count = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .min(0, { error: `${name} must be at least 0` })
    .max(max, { error: `${name} must be at most ${max}` })
    .default(fallback);

const tokenId = z
  .string({ error: 'tokenId is required' })
  .trim()
  .min(1, { error: 'tokenId is required' })
  .max(200);
const tweetType = (fallback: (typeof TWEET_TYPES)[number]) =>
  z.enum(TWEET_TYPES, { error: "Tweet type must be 'latest' or 'popular'" }).default(fallback);
const images = z.enum(IMAGE_OPTIONS, { error: "Images must be 'show' or 'hide'" }).default('show');

const userSchema = z.object({
  twitterUserId: z.string(),
  fullName: z.string(),
  username: z.string(),
  image: z.string(),
  followersCount: z.number(),
}) satisfies z.ZodType<TweetUser>;

const tweetSchema = z.object({
  id: z.string(),
  text: z.string(),
  url: z.string(),
  user: userSchema,
  media: z.array(
    z.object({ type: z.enum(['photo', 'video', 'animated_gif']), url: z.string(), previewUrl: z.string() }),
  ),
  likesCount: z.number(),
  retweetsCount: z.number(),
  date: z.string(),
  referencedTweets: z.array(
    z.object({ type: z.enum(['retweeted', 'quoted', 'replied_to']), id: z.string() }),
  ),
  isRetweeted: z.boolean(),
  isQuoted: z.boolean(),
  isReplied: z.boolean(),
}) satisfies z.ZodType<Tweet>;

const tweetsResponse = z.object({ tweets: z.array(tweetSchema) });
const listSchema = z.object({ listId: z.string(), listName: z.string() }) satisfies z.ZodType<TwitterList>;

const MAX_TWEETS = SOURCE_POST_LIMITS.TWITTER_TWEETS;
/** Options shared by the tweets, timeline and list previews (docs/product.md §3, defaults of docs/product.md §9 per kind). */
const tweetQuery = (defaults: {
  tweetType: (typeof TWEET_TYPES)[number];
  limit: number;
  perUser: number;
}) => ({
  tokenId,
  tweetType: tweetType(defaults.tweetType),
  retweets: queryFlag('retweets'),
  limit: count('limit', MAX_TWEETS, defaults.limit),
  perUserLimit: count('perUserLimit', MAX_TWEETS, defaults.perUser),
  images,
});
const optionsOf = (query: {
  tweetType: (typeof TWEET_TYPES)[number];
  retweets: boolean;
  limit: number;
  perUserLimit: number;
  images: (typeof IMAGE_OPTIONS)[number];
}) => ({
  tweetType: query.tweetType,
  includeRetweets: query.retweets,
  limit: query.limit,
  perUser: query.perUserLimit,
  images: query.images,
});

/**
 * docs/product.md §7 X/Twitter calls, each read with one of the signed-in user's connected X accounts (`tokenId`).
 * A tokenId that is not theirs answers 409 not connected; X refusing the account asks to reconnect it;
 * X's rate limit answers 429 with Retry-After.
 */
export function twitterRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  const reader = twitterReader(deps.sources);
  const common = { preHandler: deps.authenticate };
  const schema = (summary: string) => ({
    tags: ['data-sources'],
    summary,
    security: [{ bearerAuth: [] }],
  });

  return async (app) => {
    app.get(
      '/data-sources/twitter/users',
      {
        ...common,
        schema: {
          ...schema('X accounts to choose from: the ones the user follows, or a search'),
          description:
            'X API v2 has no user search for ordinary apps: `suggestions` are the accounts the connected ' +
            'user follows; `search` is the exact username (any public account) then the followed ' +
            'accounts whose username or name contains the text.',
          querystring: z.object({
            queryType: z.enum(['suggestions', 'search']).default('suggestions'),
            search: z.string().trim().max(100).default(''),
            tokenId,
            limit: z.coerce.number().int().min(1).max(100).default(10),
            page: z.coerce.number().int().min(1).max(1000).default(1),
          }),
          response: { 200: z.object({ users: z.array(userSchema) }) },
        },
      },
      async (request) => {
        const { tokenId: token, ...query } = request.query;
        return { users: await reader.users(authOf(request).userId, token, query) };
      },
    );

    app.get(
      '/data-sources/twitter/users/tweets',
      {
        ...common,
        schema: {
          ...schema('Latest or most popular tweets of chosen X users'),
          querystring: z.object({
            ids: z
              .string({ error: 'ids is required' })
              .regex(/^\d{1,20}(,\d{1,20}){0,99}$/, { error: 'ids must be comma-separated X user ids' }),
            ...tweetQuery({ tweetType: 'popular', limit: 6, perUser: 3 }),
          }),
          response: { 200: tweetsResponse },
        },
      },
      async (request) => ({
        tweets: await reader.usersTweets(
          authOf(request).userId,
          request.query.tokenId,
          request.query.ids.split(','),
          optionsOf(request.query),
        ),
      }),
    );

    app.get(
      '/data-sources/twitter/timeline',
      {
        ...common,
        schema: {
          ...schema("The connected account's home timeline"),
          querystring: z.object(tweetQuery({ tweetType: 'popular', limit: 6, perUser: 3 })),
          response: { 200: tweetsResponse },
        },
      },
      async (request) => ({
        tweets: await reader.timeline(
          authOf(request).userId,
          request.query.tokenId,
          optionsOf(request.query),
        ),
      }),
    );

    app.get(
      '/data-sources/twitter/search',
      {
        ...common,
        schema: {
          ...schema('Recent tweets (last 7 days) matching a phrase, with docs/product.md §5 filters'),
          description:
            'The filters become X search operators: hideRetweets `-is:retweet`, hideReplies `-is:reply`, ' +
            'linksOnly `has:links`, imagesOnly `has:images`. The first word must be longer than 2 characters.',
          querystring: z.object({
            tokenId,
            search: z
              .string({ error: 'search is required' })
              .trim()
              .max(500)
              .refine((value) => (value.split(/\s+/)[0] ?? '').length > 2, {
                error: 'Search phrase must start with a word of more than 2 characters',
              }),
            type: tweetType('latest'),
            limit: count('limit', SOURCE_POST_LIMITS.TWITTER_SEARCH, 5),
            images,
            hideRetweets: queryFlag('hideRetweets'),
            hideReplies: queryFlag('hideReplies'),
            linksOnly: queryFlag('linksOnly'),
            imagesOnly: queryFlag('imagesOnly'),
          }),
          response: { 200: tweetsResponse },
        },
      },
      async (request) => {
        const { tokenId: token, search, type, ...options } = request.query;
        return {
          tweets: await reader.search(authOf(request).userId, token, search, { ...options, tweetType: type }),
        };
      },
    );

    app.get(
      '/data-sources/twitter/list',
      {
        ...common,
        schema: {
          ...schema('Lists the connected account owns or follows'),
          querystring: z.object({ tokenId }),
          response: { 200: z.object({ lists: z.array(listSchema) }) },
        },
      },
      async (request) => ({ lists: await reader.lists(authOf(request).userId, request.query.tokenId) }),
    );

    app.get(
      '/data-sources/twitter/list/tweets',
      {
        ...common,
        schema: {
          ...schema('Tweets of one X list'),
          querystring: z.object({
            listId: z
              .string({ error: 'listId is required' })
              .regex(/^\d{1,20}$/, { error: 'listId must be an X list id' }),
            ...tweetQuery({ tweetType: 'latest', limit: 8, perUser: 4 }),
          }),
          response: { 200: tweetsResponse },
        },
      },
      async (request) => ({
        tweets: await reader.listTweets(
          authOf(request).userId,
          request.query.tokenId,
          request.query.listId,
          optionsOf(request.query),
        ),
      }),
    );
  };
}
