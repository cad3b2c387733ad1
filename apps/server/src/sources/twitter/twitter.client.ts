import type { TweetUser, TwitterList } from '@digest/contracts/content';
import { z } from 'zod';
import { reconnectOnRefusal, refusalFrom } from '#server/sources/account-refusal';
import type { ConnectedAccountSummary } from '#server/sources/connector';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp, ProviderRequest } from '#server/sources/provider-http';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { SourceError } from '#server/sources/source-error';
import { requireScopes, X_READS, type XRead, xAnswers, xRetryAfter } from './twitter.refusals';

export const PROVIDER = 'X (Twitter)';

/**
 * What every tweet read asks for: the fields and expansions a Tweet block shows (docs/product.md §3 Tweet).
 * `note_tweet` holds the whole text of a long post, of which `text` has only the first 280 characters.
 */
const TWEET_QUERY = {
  'tweet.fields': 'created_at,public_metrics,attachments,referenced_tweets,entities,note_tweet',
  expansions: 'author_id,attachments.media_keys,referenced_tweets.id',
  'media.fields': 'type,url,preview_image_url',
  'user.fields': 'name,username,profile_image_url,public_metrics',
};
const USER_FIELDS = 'name,username,profile_image_url,public_metrics';

const userSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  username: z.string(),
  profile_image_url: z.string().optional(),
  public_metrics: z
    .object({ followers_count: z.number().default(0) })
    .partial()
    .optional(),
});
export type ApiUser = z.infer<typeof userSchema>;

const tweetSchema = z.object({
  id: z.string(),
  text: z.string(),
  author_id: z.string().optional(),
  created_at: z.string().optional(),
  public_metrics: z
    .object({ like_count: z.number().default(0), retweet_count: z.number().default(0) })
    .partial()
    .optional(),
  attachments: z.object({ media_keys: z.array(z.string()).optional() }).optional(),
  referenced_tweets: z
    .array(z.object({ type: z.enum(['retweeted', 'quoted', 'replied_to']), id: z.string() }))
    .optional(),
  note_tweet: z.object({ text: z.string() }).optional(),
});
export type ApiTweet = z.infer<typeof tweetSchema>;

const mediaSchema = z.object({
  media_key: z.string(),
  type: z.enum(['photo', 'video', 'animated_gif']),
  url: z.string().optional(),
  preview_image_url: z.string().optional(),
});
export type ApiMedia = z.infer<typeof mediaSchema>;

/** X answers "not found" with 200 and `errors` instead of `data`. */
const apiErrorSchema = z.object({ detail: z.string().optional(), title: z.string().optional() });

const tweetPageSchema = z.object({
  data: z.array(tweetSchema).default([]),
  includes: z
    .object({
      users: z.array(userSchema).default([]),
      media: z.array(mediaSchema).default([]),
      tweets: z.array(tweetSchema).default([]),
    })
    .partial()
    .default({}),
  errors: z.array(apiErrorSchema).optional(),
});
export type TweetPage = z.infer<typeof tweetPageSchema>;

const userListSchema = z.object({ data: z.array(userSchema).default([]) });
const oneUserSchema = z.object({ data: userSchema.optional(), errors: z.array(apiErrorSchema).optional() });
const listsSchema = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })).default([]) });

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The user as docs/product.md §3 `twitterUsers` lists it. */
export function toTweetUser(user: ApiUser): TweetUser {
  return {
    twitterUserId: user.id,
    fullName: user.name,
    username: user.username,
    image: httpUrlOrEmpty(user.profile_image_url),
    followersCount: user.public_metrics?.followers_count ?? 0,
  };
}

/**
 * X API v2 read with one connected account's user token. Each read first checks the scopes X granted the
 * account (`account.scopes`), then reads X's refusals through its table (twitter.refusals.ts).
 */
export function twitterClient(
  deps: { http: ProviderHttp; providers: ProviderConfig },
  accessToken: string,
  account: ConnectedAccountSummary,
) {
  const base = deps.providers.baseUrls.twitterApi;
  const get = async <T>(
    read: XRead,
    path: string,
    query: Record<string, string>,
    schema: z.ZodType<T>,
  ): Promise<T> => {
    requireScopes(account, read);
    const url = new URL(base + path);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const request: ProviderRequest = {
      provider: PROVIDER,
      url,
      headers: { authorization: `Bearer ${accessToken}` },
      private: true,
      // X's rate limits are per 15 minutes: reuse answers for a few minutes rather than spend them.
      cache: { defaultSeconds: 180, minSeconds: 60, maxSeconds: 600 },
      retryAfter: xRetryAfter,
      refusal: refusalFrom(xAnswers(read)),
    };
    return deps.http.json(request, schema).catch(reconnectOnRefusal(PROVIDER));
  };
  const tweets = async (read: XRead, path: string, query: Record<string, string>, what: string) => {
    const page = await get(read, path, { ...TWEET_QUERY, ...query }, tweetPageSchema);
    if (page.data.length === 0 && page.errors?.length) {
      throw new SourceError('not_found', `${PROVIDER}: ${what} not found`);
    }
    return page;
  };
  const exclude = (includeRetweets: boolean) => (includeRetweets ? 'replies' : 'retweets,replies');

  return {
    /** GET /users/{id}/tweets: 5 to 100 per request. */
    userTweets: (userId: string, count: number, includeRetweets: boolean) =>
      tweets(
        X_READS.userTweets,
        `/users/${encodeURIComponent(userId)}/tweets`,
        { max_results: String(clamp(count, 5, 100)), exclude: exclude(includeRetweets) },
        'user',
      ),
    /** GET /users/{me}/timelines/reverse_chronological: the home timeline, 1 to 100. */
    timeline: (me: string, count: number, includeRetweets: boolean) =>
      tweets(
        X_READS.timeline,
        `/users/${encodeURIComponent(me)}/timelines/reverse_chronological`,
        { max_results: String(clamp(count, 1, 100)), exclude: exclude(includeRetweets) },
        'timeline',
      ),
    /** GET /tweets/search/recent: the last 7 days, 10 to 100. */
    search: (query: string, count: number) =>
      tweets(
        X_READS.search,
        '/tweets/search/recent',
        { query, max_results: String(clamp(count, 10, 100)) },
        'search',
      ),
    /** GET /lists/{id}/tweets: 1 to 100 (no `exclude` on this endpoint). */
    listTweets: (listId: string, count: number) =>
      tweets(
        X_READS.listTweets,
        `/lists/${encodeURIComponent(listId)}/tweets`,
        { max_results: String(clamp(count, 1, 100)) },
        'list',
      ),
    /** The lists the user owns, then the ones they follow. */
    lists: async (me: string): Promise<TwitterList[]> => {
      const query = { max_results: '100' };
      const [owned, followed] = await Promise.all([
        get(X_READS.ownedLists, `/users/${encodeURIComponent(me)}/owned_lists`, query, listsSchema),
        get(X_READS.followedLists, `/users/${encodeURIComponent(me)}/followed_lists`, query, listsSchema),
      ]);
      const all = [...owned.data, ...followed.data];
      return all
        .filter((list, index) => all.findIndex((other) => other.id === list.id) === index)
        .map((list) => ({ listId: list.id, listName: list.name }));
    },
    /** GET /users/{me}/following: up to 1000 accounts in one page. */
    following: async (me: string): Promise<ApiUser[]> =>
      (
        await get(
          X_READS.following,
          `/users/${encodeURIComponent(me)}/following`,
          { max_results: '1000', 'user.fields': USER_FIELDS },
          userListSchema,
        )
      ).data,
    /** GET /users/by/username/{name}: undefined when there is no such user. */
    userByUsername: async (username: string): Promise<ApiUser | undefined> =>
      (
        await get(
          X_READS.userLookup,
          `/users/by/username/${encodeURIComponent(username)}`,
          { 'user.fields': USER_FIELDS },
          oneUserSchema,
        )
      ).data,
  };
}
