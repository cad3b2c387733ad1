import { z } from 'zod';
import type { SourcesDeps } from '#server/sources/connector';
import { SourceError } from '#server/sources/source-error';

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
export type RedditPostData = z.infer<typeof postSchema>['data'];

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
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const notFound = (subreddit: string) =>
  new SourceError('not_found', `r/${subreddit} was not found: it does not exist, is private or was banned`);

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
  async function get<T>(path: string, params: Record<string, string>, schema: z.ZodType<T>, renew = false) {
    const bearer = await appToken(renew);
    const url = new URL(bearer ? `${oauthBase}${path}` : `${publicBase}${path}.json`);
    url.search = new URLSearchParams({ ...params, raw_json: '1' }).toString();
    const headers: Record<string, string> = { 'user-agent': REDDIT_USER_AGENT };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const answer = await deps.http.text({ provider: PROVIDER, url, headers, cache: { defaultSeconds: 300 } });
    const searched = new URL(answer.url).pathname.endsWith('/subreddits/search.json');
    if (searched && !path.startsWith('/subreddits/search')) {
      throw new SourceError('not_found', `${PROVIDER} redirected to its search: not found`);
    }
    const parsed = schema.safeParse(parseJson(answer.body));
    if (!parsed.success)
      throw new SourceError('invalid_response', `${PROVIDER} answered in an unexpected shape`);
    return parsed.data;
  }

  /** `get`, once more with a new token if Reddit refused the one we had (revoked or expired early). */
  async function getRenewing<T>(path: string, params: Record<string, string>, schema: z.ZodType<T>) {
    try {
      return await get(path, params, schema);
    } catch (error) {
      const refused = error instanceof SourceError && error.kind === 'unauthorized';
      if (!refused || !credentials) throw error;
      return get(path, params, schema, true);
    }
  }

  return {
    /** The hot posts of a subreddit, stickied and NSFW ones included (the connector decides). */
    async hot(subreddit: string): Promise<RedditPostData[]> {
      try {
        const path = `/r/${encodeURIComponent(subreddit)}/hot`;
        const answer = await getRenewing(path, { limit: String(HOT_PAGE) }, hotSchema);
        return answer.data.children.map((child) => child.data);
      } catch (error) {
        // 403: private or quarantined; 404: banned or (OAuth API) never existed.
        const missing = error instanceof SourceError && ['not_found', 'unauthorized'].includes(error.kind);
        throw missing ? notFound(subreddit) : error;
      }
    },

    /** Popular subreddits, or those matching `search`; `after` pages on. */
    async subreddits(options: { limit: number; search?: string; after?: string }): Promise<SubredditPage> {
      const params: Record<string, string> = { limit: String(options.limit) };
      if (options.after) params.after = options.after;
      if (options.search) params.q = options.search;
      const path = options.search ? '/subreddits/search' : '/subreddits/popular';
      const answer = await getRenewing(path, params, subredditsSchema);
      return {
        subreddits: answer.data.children.map((child) => child.data),
        after: answer.data.after ?? null,
      };
    },
  };
}
