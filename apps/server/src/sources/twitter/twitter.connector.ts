import type { ImagesOption, TweetType } from '@digest/contracts';
import type { Tweet, TweetUser, TwitterContent, TwitterList } from '@digest/contracts/content';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { SourceError } from '#server/sources/source-error';
import { searchQuery, selectTweets, tweetsOf } from './tweets';
import { toTweetUser, twitterClient } from './twitter.client';

export interface TweetOptions {
  tweetType: TweetType;
  limit: number;
  /** Tweets per author (docs/product.md §3 numberOfTweetsPerUser). */
  perUser: number;
  includeRetweets: boolean;
  images: ImagesOption;
}

export interface SearchOptions {
  tweetType: TweetType;
  limit: number;
  images: ImagesOption;
  hideRetweets: boolean;
  hideReplies: boolean;
  linksOnly: boolean;
  imagesOnly: boolean;
}

export interface UserQuery {
  queryType: 'suggestions' | 'search';
  search: string;
  limit: number;
  page: number;
}

/**
 * How many tweets to read to choose `wanted` from: 'popular' picks the best of a wider window, and the
 * per-author cap of a timeline or list drops some.
 */
const candidates = (wanted: number) => wanted * 3;

/** A valid X username (what `/users/by/username/{name}` accepts), without a leading @. */
const USERNAME = /^\w{1,15}$/;

/**
 * X/Twitter read for one user with one of their connected X accounts (`tokenId`): the tweets of chosen
 * users, the home timeline, recent search, lists and the accounts to choose from. An account that is
 * not theirs, disconnected or refused by X fails with `not_connected`.
 */
export function twitterReader(deps: SourcesDeps) {
  const open = async (userId: string, tokenId: string) => {
    const { accessToken, account } = await deps.accounts.accessToken(userId, tokenId, 'TWITTER');
    return { client: twitterClient(deps, accessToken, account), me: account.providerAccountId };
  };

  return {
    /** The latest or most popular tweets of each chosen user, `perUser` each, `limit` in all. */
    async usersTweets(
      userId: string,
      tokenId: string,
      userIds: string[],
      options: TweetOptions,
    ): Promise<Tweet[]> {
      if (options.limit === 0 || options.perUser === 0 || userIds.length === 0) return [];
      const { client } = await open(userId, tokenId);
      const pages = await Promise.all(
        userIds.map((id) =>
          client
            .userTweets(id, candidates(options.perUser), options.includeRetweets)
            .catch((error: unknown) => {
              // A suspended or deleted account drops out; the others still show.
              if (error instanceof SourceError && error.kind === 'not_found') return undefined;
              throw error;
            }),
        ),
      );
      const tweets = pages.flatMap((page) => (page ? tweetsOf(page, options.images) : []));
      return selectTweets(tweets, options);
    },

    /** The user's home timeline (reverse chronological), `perUser` per author. */
    async timeline(userId: string, tokenId: string, options: TweetOptions): Promise<Tweet[]> {
      if (options.limit === 0 || options.perUser === 0) return [];
      const { client, me } = await open(userId, tokenId);
      const page = await client.timeline(me, candidates(options.limit), options.includeRetweets);
      return selectTweets(tweetsOf(page, options.images), options);
    },

    /** Recent search (the last 7 days) with docs/product.md §5's filters as search operators. */
    async search(userId: string, tokenId: string, phrase: string, options: SearchOptions): Promise<Tweet[]> {
      if ((phrase.trim().split(/\s+/)[0] ?? '').length <= 2) {
        throw new SourceError(
          'invalid_request',
          'The search phrase must start with a word of more than 2 characters',
        );
      }
      if (options.limit === 0) return [];
      const { client } = await open(userId, tokenId);
      const page = await client.search(searchQuery(phrase, options), candidates(options.limit));
      return selectTweets(tweetsOf(page, options.images), {
        ...options,
        includeRetweets: !options.hideRetweets,
        includeReplies: !options.hideReplies,
      });
    },

    /** Tweets of one list (owned or followed), `perUser` per member; replies left out. */
    async listTweets(
      userId: string,
      tokenId: string,
      listId: string,
      options: TweetOptions,
    ): Promise<Tweet[]> {
      if (options.limit === 0 || options.perUser === 0) return [];
      const { client } = await open(userId, tokenId);
      const page = await client.listTweets(listId, candidates(options.limit));
      return selectTweets(tweetsOf(page, options.images), options);
    },

    /** The lists the user owns, then the ones they follow (docs/product.md §3 Twitter list). */
    async lists(userId: string, tokenId: string): Promise<TwitterList[]> {
      const { client, me } = await open(userId, tokenId);
      return client.lists(me);
    },

    /**
     * Accounts to choose from. X API v2 has no user search for ordinary apps, so suggestions are the
     * accounts the user follows, and a search is the exact username (any public account) followed by
     * the followed accounts whose username or name contains the text.
     */
    async users(userId: string, tokenId: string, query: UserQuery): Promise<TweetUser[]> {
      const { client, me } = await open(userId, tokenId);
      const text = query.search.trim().replace(/^@/, '').toLowerCase();
      const following = (await client.following(me)).map(toTweetUser);
      let found = following;
      if (query.queryType === 'search' && text) {
        const exact = USERNAME.test(text) ? await client.userByUsername(text) : undefined;
        const matching = following.filter(
          (user) => user.username.toLowerCase().includes(text) || user.fullName.toLowerCase().includes(text),
        );
        found = exact
          ? [toTweetUser(exact), ...matching.filter((user) => user.twitterUserId !== exact.id)]
          : matching;
      }
      const start = (query.page - 1) * query.limit;
      return found.slice(start, start + query.limit);
    },
  };
}

export type TwitterReader = ReturnType<typeof twitterReader>;

const tweetOptions = (source: {
  tweetType: TweetType;
  limit: number;
  numberOfTweetsPerUser: number;
  includeRetweets: boolean;
  images: ImagesOption;
}): TweetOptions => ({
  tweetType: source.tweetType,
  limit: source.limit,
  perUser: source.numberOfTweetsPerUser,
  includeRetweets: source.includeRetweets,
  images: source.images,
});

const content = (tweets: Tweet[]): TwitterContent => ({ tweets });

/** The four X/Twitter kinds of docs/product.md §3, read through one `twitterReader`. */
export function twitterConnectors(deps: SourcesDeps) {
  const reader = twitterReader(deps);
  const tweets: Connector<'TWITTER_TWEETS'> = {
    type: 'TWITTER_TWEETS',
    fetchContent: async (source, context) =>
      content(
        await reader.usersTweets(
          context.userId,
          source.tokenId,
          (source.twitterUsers ?? []).map((user) => user.twitterUserId),
          tweetOptions(source),
        ),
      ),
  };
  const timeline: Connector<'TWITTER_TIMELINE'> = {
    type: 'TWITTER_TIMELINE',
    fetchContent: async (source, context) =>
      content(await reader.timeline(context.userId, source.tokenId, tweetOptions(source))),
  };
  const search: Connector<'TWITTER_SEARCH'> = {
    type: 'TWITTER_SEARCH',
    fetchContent: async (source, context) =>
      content(await reader.search(context.userId, source.tokenId, source.search, source)),
  };
  const list: Connector<'TWITTER_LIST'> = {
    type: 'TWITTER_LIST',
    fetchContent: async (source, context) =>
      content(await reader.listTweets(context.userId, source.tokenId, source.listId, tweetOptions(source))),
  };
  return { tweets, timeline, search, list };
}
