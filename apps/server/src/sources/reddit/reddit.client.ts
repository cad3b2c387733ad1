import { z } from 'zod';
import { refusalFrom } from '#server/sources/account-refusal';
import type { SourcesDeps } from '#server/sources/connector';
import { type ParsedFeedItem, parseFeed } from '#server/sources/rss/feed-parser';
import { SourceError } from '#server/sources/source-error';
import {
  REDDIT_ANSWERS,
  redditRefusal,
  redditRetryAfter,
  serverBlocked,
  subredditMissing,
} from './reddit.refusals';

const PROVIDER = 'Reddit';
/**
 * Reddit throttles generic User-Agents and asks for `<platform>:<app id>:<version> (by /u/<user>)`.
 */
export const REDDIT_USER_AGENT = 'web:digest:1.0 (by /u/digest)';
/** Posts asked for per subreddit: Reddit's own page size, so stickied and NSFW posts can be skipped. */
const HOT_PAGE = 25;
/** An app token is renewed this long before Reddit says it expires. */
const TOKEN_MARGIN_MS = 60_000;

const listingOf = <T extends z.ZodType>(child: T) =>
  z.object({
    kind: z.literal('Listing'),
    data: z.object({ after: z.string().nullish(), children: z.array(child) }),
  });

const postSchema = z.object({
  kind: z.literal('t3'),
  data: z.object({
    id: z.string(),
    title: z.string(),
    permalink: z.string(),
    /** What a link post links to (a text post's own page otherwise). */
    url: z.string().nullish(),
    is_self: z.boolean().default(false),
    ups: z.number().default(0),
    num_comments: z.number().default(0),
    stickied: z.boolean().default(false),
    over_18: z.boolean().default(false),
    /** Rendered Markdown of a self post (raw HTML with `raw_json=1`); null for link posts. */
    selftext_html: z.string().nullish(),
    /** An image URL, or a word: 'self', 'default', 'nsfw', 'spoiler', 'image', ''. */
    thumbnail: z.string().nullish(),
    preview: z
      .object({ images: z.array(z.object({ source: z.object({ url: z.string() }) })).default([]) })
      .optional(),
  }),
});
/** A post as the API gives it; read from the public feed, its score and comment count are unknown (null). */
export type RedditPostData = Omit<z.infer<typeof postSchema>['data'], 'ups' | 'num_comments'> & {
  ups: number | null;
  num_comments: number | null;
};

/** Where the posts came from: the JSON API, or the public feed when Reddit refuses this server the API. */
export type RedditAccess = 'api' | 'feed';

const hotSchema = listingOf(postSchema);

const subredditSchema = z.object({
  kind: z.literal('t5'),
  data: z.object({
    name: z.string(),
    display_name: z.string(),
    public_description: z.string().nullish(),
    subscribers: z.number().nullish(),
    url: z.string(),
    icon_img: z.string().nullish(),
    community_icon: z.string().nullish(),
    over18: z.boolean().nullish(),
  }),
});
export type RedditSubredditData = z.infer<typeof subredditSchema>['data'];
const subredditsSchema = listingOf(subredditSchema);

const tokenSchema = z.object({ access_token: z.string(), expires_in: z.number() });

interface AppToken {
  value: string;
  expiresAt: number;
}

export interface SubredditPage {
  subreddits: RedditSubredditData[];
  after: string | null;
  /** 'feed': Reddit refuses this server its lists (no list can be given); posts are read from feeds. */
  access: RedditAccess;
}

/** The self text of a feed entry: Reddit's content wraps it in `<div class="md">`, before "submitted by". */
const FEED_SELF_TEXT = /<div class="md">([\s\S]*)<\/div>\s*<!-- SC_ON -->/;

/**
 * A post of the public feed. The feed carries title, link, author, self text and thumbnail; it has no
 * score or comment count (null: unknown), and it marks neither pinned nor NSFW posts.
 */
function feedPostOf(entry: ParsedFeedItem): RedditPostData {
  return {
    id: entry.guid.replace(/^t3_/, ''),
    title: entry.title,
    permalink: entry.link,
    // The feed does not say what a link post links to: no article link, so no cross-source matching.
    url: null,
    is_self: false,
    ups: null,
    num_comments: null,
    stickied: false,
    over_18: false,
    selftext_html: FEED_SELF_TEXT.exec(entry.content)?.[1] ?? null,
    thumbnail: entry.image,
  };
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * Reddit's listings. With REDDIT_CLIENT_ID / REDDIT_CLIENT_SECRET, through the OAuth API with an
 * app-only token (kept here until it expires, never in the shared content cache); otherwise through the
 * public `.json` endpoints. One client per process keeps one token.
 */
export function redditClient(deps: Pick<SourcesDeps, 'http' | 'providers' | 'clock'>) {
  const { reddit: publicBase, redditOAuth: oauthBase } = deps.providers.baseUrls;
  const credentials = deps.providers.credentials.reddit;
  let token: Promise<AppToken> | undefined;

  async function requestToken(app: { clientId: string; clientSecret: string }): Promise<AppToken> {
    const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');
    try {
      const answer = await deps.http.json(
        {
          provider: PROVIDER,
          url: `${publicBase}/api/v1/access_token`,
          method: 'POST',
          headers: {
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
            'user-agent': REDDIT_USER_AGENT,
          },
          body: 'grant_type=client_credentials',
          cache: false,
        },
        tokenSchema,
      );
      const expiresAt = deps.clock.now().getTime() + answer.expires_in * 1000 - TOKEN_MARGIN_MS;
      return { value: answer.access_token, expiresAt };
    } catch (error) {
      if (error instanceof SourceError && error.kind === 'unauthorized') {
        // A server setting to fix, not a subreddit that cannot be read.
        throw new SourceError(
          'not_configured',
          'Reddit refused this server’s app credentials (REDDIT_CLIENT_ID)',
        );
      }
      throw error;
    }
  }

  /** The app token (a fresh one when `renew`), or undefined when the server has no Reddit app. */
  async function appToken(renew: boolean): Promise<string | undefined> {
    if (!credentials) return undefined;
    const current = renew ? undefined : await token?.catch(() => undefined);
    if (current && current.expiresAt > deps.clock.now().getTime()) return current.value;
    token = requestToken(credentials);
    return (await token).value;
  }

  /**
   * One listing. For a subreddit that does not exist the public endpoint redirects to the subreddit
   * search (whose answer may even be an empty listing): that is a 404 in all but name.
   */
  async function get<T>(
    path: string,
    params: Record<string, string>,
    schema: z.ZodType<T>,
    subreddit?: string,
    renew = false,
  ) {
    const bearer = await appToken(renew);
    const url = new URL(bearer ? `${oauthBase}${path}` : `${publicBase}${path}.json`);
    url.search = new URLSearchParams({ ...params, raw_json: '1' }).toString();
    const headers: Record<string, string> = { 'user-agent': REDDIT_USER_AGENT };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const answer = await deps.http.text({
      provider: PROVIDER,
      url,
      headers,
      cache: { defaultSeconds: 300 },
      retryAfter: redditRetryAfter,
      refusal: redditRefusal(subreddit),
    });
    const searched = new URL(answer.url).pathname.endsWith('/subreddits/search.json');
    if (searched && !path.startsWith('/subreddits/search')) {
      throw subreddit ? subredditMissing(subreddit) : new SourceError('not_found', `${PROVIDER}: not found`);
    }
    const parsed = schema.safeParse(parseJson(answer.body));
    if (!parsed.success)
      throw new SourceError('invalid_response', `${PROVIDER} answered in an unexpected shape`);
    return parsed.data;
  }

  /** `get`, once more with a new token if Reddit refused the one we had (revoked or expired early). */
  async function getRenewing<T>(
    path: string,
    params: Record<string, string>,
    schema: z.ZodType<T>,
    subreddit?: string,
  ) {
    try {
      return await get(path, params, schema, subreddit);
    } catch (error) {
      const refused = error instanceof SourceError && error.kind === 'unauthorized';
      if (!refused || !credentials) throw error;
      return get(path, params, schema, subreddit, true);
    }
  }

  /** The subreddit's public Atom feed (`/r/{name}/.rss`), which Reddit serves where it refuses the API. */
  async function hotFromFeed(subreddit: string): Promise<RedditPostData[]> {
    const url = new URL(`${publicBase}/r/${encodeURIComponent(subreddit)}/.rss`);
    url.searchParams.set('limit', String(HOT_PAGE));
    let answer: Awaited<ReturnType<typeof deps.http.text>>;
    try {
      answer = await deps.http.text({
        provider: `${PROVIDER}'s feed of r/${subreddit}`,
        url,
        headers: {
          'user-agent': REDDIT_USER_AGENT,
          accept: 'application/atom+xml, application/xml;q=0.9, */*;q=0.1',
        },
        cache: { defaultSeconds: 300 },
        retryAfter: redditRetryAfter,
        refusal: refusalFrom(REDDIT_ANSWERS),
      });
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      if (error.providerStatus === 404) throw subredditMissing(subreddit);
      // Reddit itself is down: that, not the server's missing app, is what the next issue waits for.
      if ((error.providerStatus ?? 0) >= 500) throw error;
      // The feed too refuses (or fails): say what the server lacks, and what the feed answered.
      throw new SourceError(
        error.kind === 'rate_limited' ? 'rate_limited' : 'blocked',
        `${serverBlocked().message}, and r/${subreddit}'s public feed could not be read either (${error.message})`,
        error.retryAfterSeconds,
        error.providerStatus,
      );
    }
    try {
      return parseFeed(answer.bytes, { url: answer.url, contentType: answer.contentType }).items.map(
        feedPostOf,
      );
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      throw new SourceError(
        'invalid_response',
        `${PROVIDER} answered r/${subreddit}'s feed with something unreadable`,
      );
    }
  }

  return {
    /**
     * The hot posts of a subreddit, stickied and NSFW ones included (the connector decides); from the
     * public feed when Reddit refuses this server its API (`access: 'feed'`: no scores or comment counts).
     */
    async hot(subreddit: string): Promise<{ posts: RedditPostData[]; access: RedditAccess }> {
      try {
        const path = `/r/${encodeURIComponent(subreddit)}/hot`;
        const answer = await getRenewing(path, { limit: String(HOT_PAGE) }, hotSchema, subreddit);
        return { posts: answer.data.children.map((child) => child.data), access: 'api' };
      } catch (error) {
        if (!(error instanceof SourceError && error.kind === 'blocked')) throw error;
        return { posts: await hotFromFeed(subreddit), access: 'feed' };
      }
    },

    /** Popular subreddits, or those matching `search`; `after` pages on. */
    async subreddits(options: { limit: number; search?: string; after?: string }): Promise<SubredditPage> {
      const params: Record<string, string> = { limit: String(options.limit) };
      if (options.after) params.after = options.after;
      if (options.search) params.q = options.search;
      const path = options.search ? '/subreddits/search' : '/subreddits/popular';
      try {
        const answer = await getRenewing(path, params, subredditsSchema);
        return {
          subreddits: answer.data.children.map((child) => child.data),
          after: answer.data.after ?? null,
          access: 'api',
        };
      } catch (error) {
        // Reddit has no public feed of its subreddits: the builder asks for a name instead.
        if (error instanceof SourceError && error.kind === 'blocked') {
          return { subreddits: [], after: null, access: 'feed' };
        }
        throw error;
      }
    },
  };
}
