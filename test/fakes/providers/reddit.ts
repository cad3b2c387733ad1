/**
 * Reddit: the public JSON endpoints (`/r/{sub}/hot.json`, `/subreddits/popular.json`,
 * `/subreddits/search.json`), the app-only token endpoint (`POST /api/v1/access_token`, HTTP Basic with
 * the client id and secret) and the OAuth API under `/oauth` (Bearer token from that endpoint).
 *
 * Like the real one it turns away generic User-Agents (429), HTML-escapes every string unless
 * `raw_json=1`, answers 403 for a private subreddit, 404 for a banned one, and for a name that does not
 * exist redirects the public endpoint to the subreddit search (the OAuth API answers 404).
 * Known subreddits (the popular list) all serve the recorded r/programming hot listing.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';

const FAKE_REDDIT_CLIENT = { id: 'fake-reddit-client', secret: 'fake-reddit-secret' };

interface Thing<T> {
  kind: string;
  data: T;
}
interface Listing<T> {
  kind: 'Listing';
  data: { after: string | null; dist: number; children: Thing<T>[]; [field: string]: unknown };
}
interface SubredditData {
  name: string;
  display_name: string;
  title: string;
  public_description: string;
}
type PostData = Record<string, unknown>;

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/reddit/${name}`, import.meta.url), 'utf8'));

const hotProgramming = fixture<Listing<PostData>>('hot-programming.json');
const subreddits = fixture<Listing<SubredditData>>('subreddits-popular.json').data.children;

const PRIVATE = 'private_club';
const BANNED = 'banned_example';

const redditError = (status: number, message: string, reason?: string): FakeResponse => ({
  status,
  body: reason ? { reason, message, error: status } : { message, error: status },
});

/** What Reddit does to every string of an answer without `raw_json=1`. */
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string')
    return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, escapeStrings(item)]));
  }
  return value;
}

const json = (query: URLSearchParams, body: object): FakeResponse => ({
  body: query.get('raw_json') === '1' ? body : (escapeStrings(body) as object),
});

/** `limit` as Reddit reads it: default 25, at most 100. */
function limitOf(query: URLSearchParams): number {
  const limit = Number(query.get('limit') ?? 25);
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, 100) : 25;
}

function listing<T>(children: Thing<T>[], after: string | null): Listing<T> {
  return {
    kind: 'Listing',
    data: { after, dist: children.length, modhash: '', geo_filter: '', children, before: null },
  };
}

/** One page of `all` after the item named `after`. */
function page(all: Thing<SubredditData>[], query: URLSearchParams) {
  const after = query.get('after');
  const start = after ? all.findIndex((child) => child.data.name === after) + 1 : 0;
  const children = all.slice(start, start + limitOf(query));
  const more = start + children.length < all.length;
  return listing(children, more ? (children.at(-1)?.data.name ?? null) : null);
}

function search(query: URLSearchParams) {
  const q = (query.get('q') ?? '').toLowerCase();
  const found = subreddits.filter(({ data }) =>
    [data.display_name, data.title, data.public_description].some((text) => text.toLowerCase().includes(q)),
  );
  return page(q ? found : [], query);
}

function hot(name: string, query: URLSearchParams, oauth: boolean): FakeResponse {
  if (name.toLowerCase() === PRIVATE) return redditError(403, 'Forbidden', 'private');
  if (name.toLowerCase() === BANNED) return redditError(404, 'Not Found', 'banned');
  const known = subreddits.find(({ data }) => data.display_name.toLowerCase() === name.toLowerCase());
  if (!known) {
    if (oauth) return redditError(404, 'Not Found');
    return {
      status: 302,
      headers: { location: `../../subreddits/search.json?q=${encodeURIComponent(name)}` },
    };
  }
  const display = known.data.display_name;
  const recorded = hotProgramming.data.children.slice(0, limitOf(query));
  const children = recorded.map((child) => ({
    ...child,
    data: {
      ...child.data,
      subreddit: display,
      subreddit_name_prefixed: `r/${display}`,
      subreddit_id: known.data.name,
      permalink: String(child.data.permalink).replace('/r/programming/', `/r/${display}/`),
    },
  }));
  const last = recorded.at(-1);
  return json(query, listing(children, last ? `t3_${String(last.data.id)}` : null));
}

/** The shared API of both hosts: `/r/{sub}/hot`, `/subreddits/popular`, `/subreddits/search`. */
function api(path: string, query: URLSearchParams, oauth: boolean): FakeResponse | undefined {
  const hotMatch = /^\/r\/([^/]+)\/hot$/.exec(path);
  if (hotMatch) return hot(decodeURIComponent(hotMatch[1] as string), query, oauth);
  if (path === '/subreddits/popular') return json(query, page(subreddits, query));
  if (path === '/subreddits/search') return json(query, search(query));
  return undefined;
}

const GENERIC_AGENTS = /^(node|undici|python-requests|curl|axios|go-http-client|java)/i;

function createRedditFake(): FakeProvider {
  const issued = new Set<string>();

  function accessToken(request: FakeRequest): FakeResponse {
    const expected = Buffer.from(`${FAKE_REDDIT_CLIENT.id}:${FAKE_REDDIT_CLIENT.secret}`).toString('base64');
    if (request.headers.authorization !== `Basic ${expected}`) return redditError(401, 'Unauthorized');
    // The real endpoint answers 200 with an `error` field for a bad grant.
    if (new URLSearchParams(request.body).get('grant_type') !== 'client_credentials') {
      return { body: { error: 'unsupported_grant_type' } };
    }
    const token = `fake-reddit-app-${randomBytes(8).toString('hex')}`;
    issued.add(token);
    return { body: { access_token: token, token_type: 'bearer', expires_in: 86400, scope: '*' } };
  }

  return {
    prefix: '/reddit',
    env: { REDDIT_BASE_URL: '', REDDIT_OAUTH_BASE_URL: '/oauth' },
    credentials: { REDDIT_CLIENT_ID: FAKE_REDDIT_CLIENT.id, REDDIT_CLIENT_SECRET: FAKE_REDDIT_CLIENT.secret },
    handle(request) {
      if (GENERIC_AGENTS.test(request.headers['user-agent'] ?? 'node')) {
        return {
          status: 429,
          headers: { 'content-type': 'text/html' },
          body: '<h1>whoa there, pardner!</h1>',
        };
      }
      if (request.method === 'POST' && request.path === '/api/v1/access_token') return accessToken(request);
      if (request.method !== 'GET') return redditError(405, 'Method Not Allowed');
      if (request.path.startsWith('/oauth/')) {
        const bearer = /^bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
        if (!bearer || !issued.has(bearer)) return redditError(401, 'Unauthorized');
        return api(request.path.slice('/oauth'.length), request.query, true) ?? redditError(404, 'Not Found');
      }
      if (!request.path.endsWith('.json')) return undefined;
      return (
        api(request.path.slice(0, -'.json'.length), request.query, false) ?? redditError(404, 'Not Found')
      );
    },
  };
}

export const redditFake: FakeProvider = createRedditFake();
