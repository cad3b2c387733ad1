import { DateTime } from 'luxon';
import { z } from 'zod';
import { refusalFrom } from '#server/sources/account-refusal';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';
import { SourceError } from '#server/sources/source-error';
import { PRODUCT_HUNT_API_ANSWERS } from './product-hunt.answers';
import { feedLaunches } from './product-hunt.feed';
import type { ProductHuntLaunch } from './product-hunt.launch';

const PROVIDER = 'Product Hunt';

/** Product Hunt's day — and so "today's launches" — runs on Pacific time (launches open at 00:01 PT). */
export const PRODUCT_HUNT_ZONE = 'America/Los_Angeles';

/** Today's launches, best ranked first: exactly the fields a Product Hunt item shows. */
const POSTS_QUERY = `query TodaysLaunches($first: Int!, $postedAfter: DateTime!) {
  posts(first: $first, order: RANKING, postedAfter: $postedAfter) {
    edges { node { name tagline description url votesCount commentsCount thumbnail { url } } }
  }
}`;

const postSchema = z.object({
  name: z.string(),
  tagline: z.string().nullable().default(''),
  /** Plain text. */
  description: z.string().nullable().default(''),
  url: z.string(),
  votesCount: z.number().int().default(0),
  commentsCount: z.number().int().default(0),
  thumbnail: z.object({ url: z.string().nullable() }).nullable().default(null),
});
type ProductHuntPost = z.infer<typeof postSchema>;

/** A GraphQL answer: `data`, or `errors` (also with status 200); Product Hunt's own errors say `error_description`. */
const postsAnswerSchema = z.object({
  data: z
    .object({ posts: z.object({ edges: z.array(z.object({ node: postSchema })) }) })
    .nullable()
    .optional(),
  errors: z
    .array(z.object({ message: z.string().optional(), error_description: z.string().optional() }))
    .optional(),
});

/**
 * Product Hunt's `X-Rate-Limit-Reset` counts the seconds until the rate-limit window starts again, not
 * a time ("X-Rate-Limit-Reset: seconds until the limit resets",
 * https://api.producthunt.com/v2/docs/rate_limits/headers). It sends no Retry-After.
 */
export function productHuntRetryAfter(headers: Record<string, string>): number | undefined {
  const reset = headers['x-rate-limit-reset']?.trim();
  return reset && /^\d+$/.test(reset) ? Number(reset) : undefined;
}

/** The instant today's Product Hunt day began (midnight Pacific time), as ISO 8601 UTC. */
export function startOfProductHuntDay(now: Date): string {
  return (
    DateTime.fromJSDate(now).setZone(PRODUCT_HUNT_ZONE).startOf('day').toUTC().toISO() ?? now.toISOString()
  );
}

function launchOf(post: ProductHuntPost): ProductHuntLaunch {
  return {
    name: post.name,
    tagline: post.tagline ?? '',
    description: post.description ?? '',
    url: post.url,
    thumbnail: post.thumbnail?.url ?? '',
    votesCount: post.votesCount,
    commentsCount: post.commentsCount,
  };
}

/** Product Hunt API v2: one GraphQL endpoint (`PRODUCT_HUNT_BASE_URL`) read with the developer token. */
async function apiLaunches(
  deps: { http: ProviderHttp; providers: ProviderConfig },
  token: string,
  first: number,
  postedAfter: string,
): Promise<ProductHuntLaunch[]> {
  const answer = await deps.http.json(
    {
      provider: PROVIDER,
      url: deps.providers.baseUrls.productHunt,
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ query: POSTS_QUERY, variables: { first, postedAfter } }),
      // A read: the body (query, count, day) and the token are part of the cache key.
      cache: { defaultSeconds: 600, minSeconds: 60, maxSeconds: 1800 },
      retryAfter: productHuntRetryAfter,
      refusal: refusalFrom(PRODUCT_HUNT_API_ANSWERS),
    },
    postsAnswerSchema,
  );
  const [firstError] = answer.errors ?? [];
  if (firstError) {
    const detail = firstError.message ?? firstError.error_description ?? 'no reason given';
    throw new SourceError('upstream', `Product Hunt refused the query: ${detail}`);
  }
  if (!answer.data) throw new SourceError('invalid_response', 'Product Hunt answered without data');
  return answer.data.posts.edges.map((edge) => launchOf(edge.node));
}

/**
 * Product Hunt: with PRODUCT_HUNT_TOKEN the API (today's launches, best ranked, with counts); without
 * it the public feed, which needs no token (the newest launches, in the feed's order, without counts).
 */
export function productHuntClient(deps: { http: ProviderHttp; providers: ProviderConfig }) {
  return {
    /** The first `first` launches: of the Product Hunt day that holds `now` when read from the API. */
    launches(first: number, now: Date): Promise<ProductHuntLaunch[]> {
      const token = deps.providers.credentials.productHuntToken;
      return token ? apiLaunches(deps, token, first, startOfProductHuntDay(now)) : feedLaunches(deps, first);
    },
  };
}

export type ProductHuntClient = ReturnType<typeof productHuntClient>;
