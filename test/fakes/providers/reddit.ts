/**
 * Reddit: the public JSON endpoints (`/r/{sub}/hot.json`, `/subreddits/popular.json`,
 * `/subreddits/search.json`), the app-only token endpoint (`POST /api/v1/access_token`, HTTP Basic with
 * the client id and secret) and the OAuth API under `/oauth` (Bearer token from that endpoint).
 *
 * Like the real one it turns away generic User-Agents (429), HTML-escapes every string unless
 * `raw_json=1`, answers 403 for a private subreddit, 404 for a banned one, and for a name that does not
 * exist redirects the public endpoint to the subreddit search (the OAuth API answers 404).
 * Known subreddits (the popular list) all serve the recorded r/programming hot listing.
 *
 * What Reddit does to servers, held here too:
 * - `blockServer(true)`: Reddit answers unauthenticated `.json` requests from servers with a 403 web page
 *   ("You've been blocked by network security"), as it does to data-centre addresses since 2023; the
 *   OAuth API (an app's token) and the public feeds still answer.
 * - Public Atom feeds: `GET /r/{sub}/.rss` serves the same hot posts in Reddit's feed shape (title, link,
 *   author, the self text and "[link] [comments]" as HTML content, `media:thumbnail`; no score, no
 *   comment count, pinned and NSFW posts not marked).
 * - `feedsDown(status)`: every public feed answers `status` with Reddit's error page, as in its outages
 *   (with `blockServer(true)`, a server that can read nothing at all).
 * - Rate limits (https://support.reddithelp.com/hc/en-us/articles/16160319875092, "Reddit Data API
 *   Wiki"): every answer carries `x-ratelimit-used`, `x-ratelimit-remaining` and `x-ratelimit-reset`,
 *   the last in seconds until the 10-minute window ends (not a time). `limitReached(seconds)` spends the
 *   window: every request gets 429 with those headers until it ends.
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

/** The page Reddit answers a blocked server's `.json` request with (403, HTML). */
const BLOCKED_PAGE =
  '<!doctype html><html><head><title>Blocked</title></head><body><h1>whoa there, pardner!</h1>' +
  "<p>You've been blocked by network security.</p><p>To continue, log in to your Reddit account or use " +
  'your developer token</p></body></html>';

/** The page Reddit answers with while it is down (5xx, HTML). */
const DOWN_PAGE =
  '<!doctype html><html><head><title>reddit.com: over capacity</title></head><body>' +
  '<h1>all of our servers are busy right now</h1><p>please try again in a minute</p></body></html>';

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** One hot post as an entry of Reddit's Atom feed. */
function feedEntry(post: PostData): string {
  const permalink = `https://www.reddit.com${String(post.permalink)}`;
  const author = String(post.author);
  const selfText = typeof post.selftext_html === 'string' ? post.selftext_html : '';
  const content =
    `${selfText ? `<!-- SC_OFF --><div class="md">${selfText}</div><!-- SC_ON -->` : ''} &#32; submitted by &#32; ` +
    `<a href="https://www.reddit.com/user/${author}"> /u/${author} </a> <br/> <span><a href="${String(post.url)}">[link]</a></span>` +
    ` &#32; <span><a href="${permalink}">[comments]</a></span>`;
  const thumbnail = String(post.thumbnail ?? '');
  const published = new Date(Number(post.created_utc) * 1000).toISOString().replace('.000Z', '+00:00');
  return `<entry><author><name>/u/${escapeXml(author)}</name><uri>https://www.reddit.com/user/${escapeXml(author)}</uri></author><category term="${escapeXml(String(post.subreddit))}" label="r/${escapeXml(String(post.subreddit))}"/><content type="html">${escapeXml(content)}</content><id>t3_${escapeXml(String(post.id))}</id>${
    thumbnail.startsWith('https://') ? `<media:thumbnail url="${escapeXml(thumbnail)}" />` : ''
  }<link href="${escapeXml(permalink)}" /><updated>${published}</updated><published>${published}</published><title>${escapeXml(String(post.title))}</title></entry>`;
}

/** `/r/{sub}/.rss`: the subreddit's hot posts as Reddit's Atom feed. */
function hotFeed(name: string, query: URLSearchParams): FakeResponse {
  if (name.toLowerCase() === PRIVATE)
    return { status: 403, headers: { 'content-type': 'text/html' }, body: 'Forbidden' };
  // The feed's own escaping (XML) is applied below: the listing is read as `raw_json=1` gives it.
  const answer = hot(name, new URLSearchParams({ raw_json: '1', limit: query.get('limit') ?? '25' }), true);
  if (answer.status) return { status: 404, headers: { 'content-type': 'text/html' }, body: 'Not Found' };
  const posts = (answer.body as Listing<PostData>).data.children.map((child) => child.data);
  const display = String(posts[0]?.subreddit ?? name);
  const feed =
    '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">' +
    `<category term="${display}" label="r/${display}"/><updated>${new Date().toISOString()}</updated>` +
    `<id>/r/${display}/.rss</id><link rel="self" href="https://www.reddit.com/r/${display}/.rss" type="application/atom+xml" />` +
    `<link rel="alternate" href="https://www.reddit.com/r/${display}/" type="text/html" /><title>${display}</title>` +
    `${posts.map(feedEntry).join('')}</feed>`;
  return { headers: { 'content-type': 'application/atom+xml; charset=UTF-8' }, body: feed };
}

/** Reddit's window: 10 minutes. */
const WINDOW_SECONDS = 600;
const WINDOW_REQUESTS = 1000;

export interface FakeReddit extends FakeProvider {
  /** Unauthenticated `.json` requests get Reddit's 403 page (true) or answers (false, the default). */
  blockServer(blocked: boolean): void;
  /** Every public feed answers this status (undefined: they answer again). */
  feedsDown(status: number | undefined): void;
  /** The window is spent for `resetInSeconds` from now: 429 until then (undefined: a fresh window). */
  limitReached(resetInSeconds: number | undefined): void;
}

export function createRedditFake(): FakeReddit {
  const issued = new Set<string>();
  let blocked = false;
  let feedsDownWith: number | undefined;
  let limited: { until: number } | undefined;
  let used = 0;
  const windowStart = Date.now();
  const rateHeaders = (): Record<string, string> => {
    const resetIn = limited
      ? Math.max(0, Math.ceil((limited.until - Date.now()) / 1000))
      : WINDOW_SECONDS - (Math.floor((Date.now() - windowStart) / 1000) % WINDOW_SECONDS);
    // Reddit sends the counts as decimals ("996.0") and the reset as whole seconds.
    return {
      'x-ratelimit-used': String(limited ? WINDOW_REQUESTS : used),
      'x-ratelimit-remaining': `${limited ? 0 : Math.max(0, WINDOW_REQUESTS - used)}.0`,
      'x-ratelimit-reset': String(resetIn),
    };
  };

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

  function answer(request: FakeRequest): FakeResponse | undefined {
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
    const feed = /^\/r\/([^/]+)\/\.rss$/.exec(request.path);
    if (feed && feedsDownWith !== undefined) {
      return {
        status: feedsDownWith,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: DOWN_PAGE,
      };
    }
    if (feed) return hotFeed(decodeURIComponent(feed[1] as string), request.query);
    if (!request.path.endsWith('.json')) return undefined;
    if (blocked)
      return { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' }, body: BLOCKED_PAGE };
    return api(request.path.slice(0, -'.json'.length), request.query, false) ?? redditError(404, 'Not Found');
  }

  return {
    prefix: '/reddit',
    env: { REDDIT_BASE_URL: '', REDDIT_OAUTH_BASE_URL: '/oauth' },
    credentials: { REDDIT_CLIENT_ID: FAKE_REDDIT_CLIENT.id, REDDIT_CLIENT_SECRET: FAKE_REDDIT_CLIENT.secret },
    blockServer(value) {
      blocked = value;
    },
    feedsDown(status) {
      feedsDownWith = status;
    },
    limitReached(resetInSeconds) {
      limited = resetInSeconds === undefined ? undefined : { until: Date.now() + resetInSeconds * 1000 };
    },
    handle(request) {
      if (limited && limited.until <= Date.now()) limited = undefined;
      if (limited) {
        return {
          status: 429,
          headers: { ...rateHeaders(), 'content-type': 'application/json; charset=UTF-8' },
          body: { message: 'Too Many Requests', error: 429 },
        };
      }
      used += 1;
      const response = answer(request);
      return response && { ...response, headers: { ...response.headers, ...rateHeaders() } };
    },
  };
}

export const redditFake: FakeReddit = createRedditFake();
