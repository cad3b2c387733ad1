/**
 * Product Hunt API v2 (`PRODUCT_HUNT_BASE_URL`): one GraphQL endpoint, POST only, with the developer
 * token as a bearer. It answers the `posts` query from a recording of one day's launches, which it moves
 * to the current Pacific day (launches open at 00:01 PT) and filters by `postedAfter`, so a connector
 * asking for the wrong day gets nothing. Like a GraphQL server it answers only the fields the query
 * selects and refuses unknown fields and bad variables with `200 { errors }`; a missing or wrong token
 * gets Product Hunt's 401.
 * The public feed (`PRODUCT_HUNT_FEED_URL`, no token): `GET /feed` answers an Atom recording of the newest
 * launches in Product Hunt's own shape (tagline and links as HTML content, no counts, no pictures).
 *
 * Rate limits as Product Hunt documents them (https://api.producthunt.com/v2/docs/rate_limits/headers):
 * every API answer carries `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining` and `X-Rate-Limit-Reset`, the
 * last in seconds until the 15-minute window starts again (not a time). `limitReached(seconds)` spends
 * the window: the API answers 429 with Product Hunt's `rate_limit_reached` error until it is reset.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';

export const FAKE_PRODUCT_HUNT_TOKEN = 'fake-product-hunt-token';

interface RecordedPost {
  createdAt: string;
  [field: string]: unknown;
}
interface RecordedEdge {
  cursor: string;
  node: RecordedPost;
}

const feed = readFileSync(new URL('../fixtures/product-hunt/feed.atom', import.meta.url), 'utf8');

const recording: { data: { posts: { edges: RecordedEdge[]; pageInfo: unknown; totalCount: number } } } =
  JSON.parse(readFileSync(new URL('../fixtures/product-hunt/posts-today.json', import.meta.url), 'utf8'));

/** Fields of the types the `posts` query reaches, with the type each object field leads to. */
const SCHEMA: Record<string, Record<string, string | null>> = {
  Query: { posts: 'PostConnection' },
  PostConnection: { edges: 'PostEdge', pageInfo: 'PageInfo', totalCount: null },
  PostEdge: { cursor: null, node: 'Post' },
  PageInfo: { endCursor: null, hasNextPage: null },
  Post: {
    id: null,
    name: null,
    slug: null,
    tagline: null,
    description: null,
    url: null,
    website: null,
    votesCount: null,
    commentsCount: null,
    createdAt: null,
    featuredAt: null,
    thumbnail: 'Media',
  },
  Media: { type: null, url: null, videoUrl: null },
};
const ORDERS = ['RANKING', 'NEWEST', 'VOTES', 'FEATURED_AT'];

/** A selection set: field → its own selection (null for a scalar). */
type Selection = Map<string, Selection | null>;

class GraphQlError extends Error {}

/** The selection tree of a query document, arguments kept aside per field path. */
function parseSelection(query: string): { selection: Selection; postsArguments: string } {
  const postsArguments = /\bposts\s*\(([^)]*)\)/.exec(query)?.[1] ?? '';
  const body = query.slice(query.indexOf('{')).replace(/\([^)]*\)/g, ' ');
  const tokens = body.match(/[A-Za-z_]\w*|[{}]/g) ?? [];
  let position = 0;
  const read = (): Selection => {
    const selection: Selection = new Map();
    if (tokens[position] !== '{') throw new GraphQlError('Parse error: expected {');
    position += 1;
    while (position < tokens.length && tokens[position] !== '}') {
      const field = tokens[position] as string;
      position += 1;
      selection.set(field, tokens[position] === '{' ? read() : null);
    }
    position += 1;
    return selection;
  };
  return { selection: read(), postsArguments };
}

/** `value` reduced to `selection` as GraphQL answers it; an unknown field is an error. */
function project(value: unknown, type: string, selection: Selection): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => project(item, type, selection));
  const fields = SCHEMA[type] ?? {};
  const answer: Record<string, unknown> = {};
  for (const [field, inner] of selection) {
    if (!(field in fields)) throw new GraphQlError(`Field '${field}' doesn't exist on type '${type}'`);
    const fieldType = fields[field];
    const fieldValue = (value as Record<string, unknown>)[field];
    if (fieldType && !inner)
      throw new GraphQlError(
        `Field must have selections (field '${field}' returns ${fieldType} but has no selections.)`,
      );
    answer[field] = fieldType && inner ? project(fieldValue, fieldType, inner) : (fieldValue ?? null);
  }
  return answer;
}

/** Argument `name` of `posts(...)`: a literal or a `$variable`. */
function argument(postsArguments: string, name: string, variables: Record<string, unknown>): unknown {
  const raw = new RegExp(`\\b${name}\\s*:\\s*("[^"]*"|\\$?\\w+)`).exec(postsArguments)?.[1];
  if (raw === undefined) return undefined;
  if (raw.startsWith('$')) return variables[raw.slice(1)];
  if (raw.startsWith('"')) return raw.slice(1, -1);
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** The recorded launches moved to today's Pacific day, in ranking order. */
function todaysPosts(): RecordedEdge[] {
  const today = DateTime.now().setZone('America/Los_Angeles').startOf('day');
  const recordedDay = DateTime.fromISO(recording.data.posts.edges[0]?.node.createdAt ?? '', {
    zone: 'America/Los_Angeles',
  }).startOf('day');
  const shift = Math.round(today.diff(recordedDay, 'days').days);
  return recording.data.posts.edges.map((edge) => {
    // Moved in Pacific time, so a launch at 00:01 PT stays at 00:01 PT across daylight saving.
    const moved = DateTime.fromISO(edge.node.createdAt, { zone: 'America/Los_Angeles' }).plus({
      days: shift,
    });
    const createdAt = moved.toUTC().toISO() ?? edge.node.createdAt;
    return { ...edge, node: { ...edge.node, createdAt, featuredAt: createdAt } };
  });
}

function answerPosts(request: FakeRequest): FakeResponse {
  let document: { query?: unknown; variables?: unknown };
  try {
    document = JSON.parse(request.body);
  } catch {
    return { status: 400, body: { errors: [{ message: 'No query string was present' }] } };
  }
  if (typeof document.query !== 'string')
    return { body: { errors: [{ message: 'No query string was present' }] } };
  const variables = (document.variables ?? {}) as Record<string, unknown>;
  try {
    const { selection, postsArguments } = parseSelection(document.query);
    const posts = selection.get('posts');
    if (!posts) throw new GraphQlError('This fake answers only the posts query');
    const first = argument(postsArguments, 'first', variables) ?? 20;
    if (typeof first !== 'number' || !Number.isInteger(first) || first < 0) {
      throw new GraphQlError(
        `Argument 'first' on Field 'posts' has an invalid value (${JSON.stringify(first)}). Expected type 'Int'.`,
      );
    }
    const order = argument(postsArguments, 'order', variables) ?? 'RANKING';
    if (typeof order !== 'string' || !ORDERS.includes(order)) {
      throw new GraphQlError(
        `Argument 'order' on Field 'posts' has an invalid value (${JSON.stringify(order)}). Expected type 'PostsOrder'.`,
      );
    }
    const postedAfter = argument(postsArguments, 'postedAfter', variables);
    const after =
      typeof postedAfter === 'string' ? DateTime.fromISO(postedAfter, { setZone: true }) : undefined;
    if (postedAfter !== undefined && !after?.isValid) {
      throw new GraphQlError(
        `Variable $postedAfter of type DateTime was provided invalid value (${JSON.stringify(postedAfter)})`,
      );
    }
    const edges = todaysPosts()
      .filter((edge) => !after || DateTime.fromISO(edge.node.createdAt) >= after)
      .slice(0, first);
    const connection = { ...recording.data.posts, edges, totalCount: edges.length };
    return { body: { data: project({ posts: connection }, 'Query', selection) } };
  } catch (error) {
    if (!(error instanceof GraphQlError)) throw error;
    return { body: { errors: [{ message: error.message, locations: [{ line: 1, column: 1 }] }] } };
  }
}

/** Complexity points of one 15-minute window (Product Hunt's documented limit for the GraphQL API). */
const WINDOW_POINTS = 6250;
const WINDOW_SECONDS = 15 * 60;

export function productHuntFake(): FakeProvider & { limitReached(resetInSeconds: number | undefined): void } {
  let limited: { until: number } | undefined;
  const windowStart = Date.now();
  /** Seconds until the current window ends, as Product Hunt counts them. */
  const resetIn = () =>
    limited
      ? Math.max(0, Math.ceil((limited.until - Date.now()) / 1000))
      : WINDOW_SECONDS - (Math.floor((Date.now() - windowStart) / 1000) % WINDOW_SECONDS);
  const rateHeaders = (remaining: number): Record<string, string> => ({
    'x-rate-limit-limit': String(WINDOW_POINTS),
    'x-rate-limit-remaining': String(remaining),
    'x-rate-limit-reset': String(resetIn()),
  });
  return {
    /** The window is spent for `resetInSeconds` from now (undefined: a fresh window again). */
    limitReached(resetInSeconds) {
      limited = resetInSeconds === undefined ? undefined : { until: Date.now() + resetInSeconds * 1000 };
    },
    prefix: '/product-hunt',
    env: { PRODUCT_HUNT_BASE_URL: '/v2/api/graphql', PRODUCT_HUNT_FEED_URL: '/feed' },
    credentials: { PRODUCT_HUNT_TOKEN: FAKE_PRODUCT_HUNT_TOKEN },
    handle(request): FakeResponse | undefined {
      if (request.path === '/feed' && request.method === 'GET') {
        return { headers: { 'content-type': 'application/atom+xml; charset=utf-8' }, body: feed };
      }
      if (request.path !== '/v2/api/graphql') return undefined;
      if (request.headers.authorization !== `Bearer ${FAKE_PRODUCT_HUNT_TOKEN}`) {
        return {
          status: 401,
          body: {
            data: null,
            errors: [
              {
                error: 'invalid_oauth_token',
                error_description:
                  'Please supply a valid access token. Refer to our api documentation about how to authorize and authenticate your requests.',
              },
            ],
          },
        };
      }
      if (request.method !== 'POST') {
        return { status: 405, body: { errors: [{ message: 'Only POST requests are supported' }] } };
      }
      if (limited && limited.until <= Date.now()) limited = undefined;
      if (limited) {
        const reset = resetIn();
        return {
          status: 429,
          headers: rateHeaders(0),
          body: {
            data: null,
            errors: [
              {
                error: 'rate_limit_reached',
                error_description: 'Sorry. You have exceeded the API rate limit, please try again later.',
                details: { limit: WINDOW_POINTS, remaining: 0, reset_in: reset },
              },
            ],
          },
        };
      }
      const answer = answerPosts(request);
      return { ...answer, headers: { ...answer.headers, ...rateHeaders(WINDOW_POINTS - 1) } };
    },
  };
}
