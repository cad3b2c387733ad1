/**
 * X API v2 (`TWITTER_API_BASE_URL` = `/twitter/2`): user tweets, the home timeline, recent search, lists
 * and user lookups, answered from tweets, users and media recorded in the API's own shape. Like the real
 * API it returns only the fields and expansions asked for (`tweet.fields`, `user.fields`, `media.fields`,
 * `expansions`), checks `max_results` ranges, applies `exclude` and the search operators the app uses
 * (`-is:retweet`, `-is:reply`, `has:links`, `has:images`), and answers errors as problem objects.
 *
 * The signed-in user ("me" of the timeline and list endpoints) is the X user id the access token names
 * (fake OAuth server, `fake-bearer.ts`); every account sees the same recorded timeline. `/2/users/me`
 * lives with the fake OAuth server.
 *
 * X's access rules are held here as X states them, so a connector cannot pass the fake and fail on X:
 * - Scopes: each endpoint needs the OAuth 2.0 scopes its reference page lists ("Authorization: OAuth 2.0
 *   scopes required by this endpoint"); a token without one of them gets X's plain 403 problem.
 * - Access tier: the reads the sources make (user posts, home timeline, search, lists, follows) are not
 *   in X's Free tier (https://docs.x.com/x-api/getting-started/about-x-api, "Access levels"). A token of
 *   an app on the Free tier gets X's 453 answer ("You currently have access to a subset of X API V2
 *   endpoints…"); one of an app outside a project gets the `client-not-enrolled` problem
 *   (`ClientForbiddenProblem` of X's OpenAPI document). `setTier(tier, accountId?)` picks the tier of
 *   the app every token (or one account's tokens) came from; 'basic' by default.
 *
 * The recordings are held to X's published shapes in `sdk-shapes.test.ts`: `twitter-api-sdk` 1.2
 * (`dist/gen/openapi-types.d.ts`, generated from X's OpenAPI document), with the few fields X added since
 * (`note_tweet`, newer public metrics) allowed there by name. The 403 bodies here follow its
 * `ClientForbiddenProblem` and `Problem`. (`@xdevplatform/xdk` 0.6 types its answers camelCased and renamed,
 * converted at run time, so it does not describe the wire.)
 */
import { readFileSync } from 'node:fs';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';
import { fakeBearerGrant } from './fake-bearer';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/twitter/${name}`, import.meta.url), 'utf8'));

type ApiObject = Record<string, unknown>;
interface ApiTweet extends ApiObject {
  id: string;
  text: string;
  author_id: string;
  created_at: string;
  attachments?: { media_keys: string[] };
  referenced_tweets?: { type: string; id: string }[];
  entities?: { urls?: unknown[] };
}
interface ApiUser extends ApiObject {
  id: string;
  username: string;
}

const recorded = fixture('tweets.json') as {
  data: ApiTweet[];
  includes: { users: ApiUser[]; media: (ApiObject & { media_key: string; type: string })[] };
};
/** The recorded owner of the timeline (the fake OAuth server's first X account). */
const ME = (fixture('me.json') as { data: ApiUser }).data;
const FOLLOWING = (fixture('following.json') as { data: ApiUser[] }).data;
const LIST_IDS = ['1600000000000000001', '1600000000000000002'];
const membersOf = (listId: string) =>
  (fixture(`list-members-${listId}.json`) as { data: ApiUser[] }).data.map((user) => user.id);

function problem(status: number, title: string, detail: string, extra: ApiObject = {}): FakeResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: {
      title,
      detail,
      type: status === 400 ? 'https://api.x.com/2/problems/invalid-request' : 'about:blank',
      status,
      ...extra,
    },
  };
}

const UNAUTHORIZED = problem(401, 'Unauthorized', 'Unauthorized');

/** The tiers of X API access that change what the sources can read. */
export type FakeXTier = 'basic' | 'free' | 'not-enrolled';

/** X's answer to a token whose scopes do not cover the endpoint: a bare 403 problem. */
const MISSING_SCOPE = problem(403, 'Forbidden', 'Forbidden');

/** X's answer on the Free tier to an endpoint outside it (v1.1-style error list, code 453, status 403). */
const FREE_TIER: FakeResponse = {
  status: 403,
  body: {
    errors: [
      {
        message:
          'You currently have access to a subset of X API V2 endpoints and limited v1.1 endpoints (e.g. media post, oauth) only. If you need access to this endpoint, you may need a different access level. You can learn more here: https://developer.x.com/en/portal/product',
        code: 453,
      },
    ],
  },
};

/** X's answer to an app that is not attached to a project (`ClientForbiddenProblem`, reason client-not-enrolled). */
const NOT_ENROLLED: FakeResponse = {
  status: 403,
  headers: { 'content-type': 'application/problem+json' },
  body: {
    client_id: '28659504',
    detail:
      'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project. You can create a project via the developer portal.',
    registration_url: 'https://developer.twitter.com/en/docs/projects/overview',
    title: 'Client Forbidden',
    required_enrollment: 'Appropriate Level of API Access',
    reason: 'client-not-enrolled',
    type: 'https://api.twitter.com/2/problems/client-forbidden',
  },
};

/** The scopes each endpoint needs, from its X API v2 reference page. */
const TWEETS = ['tweet.read', 'users.read'];
const SCOPES: [RegExp, string[]][] = [
  [/^\/2\/users\/\d+\/following$/, [...TWEETS, 'follows.read']],
  [/^\/2\/users\/\d+\/owned_lists$/, ['list.read', 'users.read']],
  [/^\/2\/users\/\d+\/followed_lists$/, [...TWEETS, 'list.read']],
  [/^\/2\/lists\/\d+\/tweets$/, [...TWEETS, 'list.read']],
  [/^\/2\/.*$/, TWEETS],
];

/** 200 with `errors`, as X answers a lookup of something that does not exist. */
const notFound = (resource: string, parameter: string, value: string): ApiObject => ({
  value,
  detail: `Could not find ${resource} with ${parameter}: [${value}].`,
  title: 'Not Found Error',
  resource_type: resource,
  parameter,
  resource_id: value,
  type: 'https://api.x.com/2/problems/resource-not-found',
});

/** `max_results` outside the endpoint's range → the API's 400. */
function badMaxResults(query: URLSearchParams, min: number, max: number): FakeResponse | undefined {
  const value = query.get('max_results');
  if (value === null) return undefined;
  const count = Number(value);
  if (Number.isInteger(count) && count >= min && count <= max) return undefined;
  return problem(400, 'Invalid Request', 'One or more parameters to your request was invalid.', {
    errors: [
      {
        parameters: { max_results: [value] },
        message: `The \`max_results\` query parameter value [${value}] is not between ${min} and ${max}`,
      },
    ],
  });
}

const listParam = (query: URLSearchParams, name: string) =>
  new Set((query.get(name) ?? '').split(',').filter(Boolean));

/** Only the default fields plus the ones asked for, as the API does. */
function pick(object: ApiObject, defaults: string[], asked: Set<string>): ApiObject {
  return Object.fromEntries(
    Object.entries(object).filter(([key]) => defaults.includes(key) || asked.has(key)),
  );
}

const isType = (tweet: ApiTweet, type: string) =>
  tweet.referenced_tweets?.some((ref) => ref.type === type) ?? false;
const hasPhoto = (tweet: ApiTweet) =>
  tweet.attachments?.media_keys.some(
    (key) => recorded.includes.media.find((m) => m.media_key === key)?.type === 'photo',
  ) ?? false;

/** A page of tweets in the API's shape: fields, expansions and `includes` as asked, newest first. */
function tweetPage(request: FakeRequest, tweets: ApiTweet[], defaultMax: number): FakeResponse {
  const { query } = request;
  const sorted = [...tweets].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const offset = Number(Buffer.from(query.get('pagination_token') ?? '', 'base64url').toString() || 0);
  const max = Number(query.get('max_results') ?? defaultMax);
  const page = sorted.slice(offset, offset + max);
  if (page.length === 0) return { body: { meta: { result_count: 0 } } };

  const expansions = listParam(query, 'expansions');
  const tweetFields = listParam(query, 'tweet.fields');
  if (expansions.has('author_id')) tweetFields.add('author_id');
  if (expansions.has('attachments.media_keys')) tweetFields.add('attachments');
  if (expansions.has('referenced_tweets.id')) tweetFields.add('referenced_tweets');
  const tweetDefaults = ['id', 'text', 'edit_history_tweet_ids'];
  const referenced = expansions.has('referenced_tweets.id')
    ? recorded.data.filter((tweet) =>
        page.some((t) => t.referenced_tweets?.some((ref) => ref.id === tweet.id)),
      )
    : [];
  const authorIds = new Set([...page, ...referenced].map((tweet) => tweet.author_id));
  const mediaKeys = new Set(page.flatMap((tweet) => tweet.attachments?.media_keys ?? []));
  const includes: ApiObject = {};
  if (expansions.has('author_id')) {
    includes.users = recorded.includes.users
      .filter((user) => authorIds.has(user.id))
      .map((user) => pick(user, ['id', 'name', 'username'], listParam(query, 'user.fields')));
  }
  if (expansions.has('attachments.media_keys') && mediaKeys.size > 0) {
    includes.media = recorded.includes.media
      .filter((media) => mediaKeys.has(media.media_key))
      .map((media) => pick(media, ['media_key', 'type'], listParam(query, 'media.fields')));
  }
  if (referenced.length > 0)
    includes.tweets = referenced.map((tweet) => pick(tweet, tweetDefaults, tweetFields));
  const next =
    offset + max < sorted.length ? Buffer.from(String(offset + max)).toString('base64url') : undefined;
  return {
    body: {
      data: page.map((tweet) => pick(tweet, tweetDefaults, tweetFields)),
      includes,
      meta: {
        result_count: page.length,
        newest_id: page[0]?.id,
        oldest_id: page.at(-1)?.id,
        ...(next ? { next_token: next } : {}),
      },
    },
  };
}

/** `exclude=retweets,replies` of the user and timeline endpoints. */
function excluded(request: FakeRequest, tweets: ApiTweet[]): ApiTweet[] {
  const exclude = listParam(request.query, 'exclude');
  return tweets.filter(
    (tweet) =>
      !(exclude.has('retweets') && isType(tweet, 'retweeted')) &&
      !(exclude.has('replies') && isType(tweet, 'replied_to')),
  );
}

/** Recent search: every plain word must appear; the operators the app sends are honoured. */
function search(request: FakeRequest): FakeResponse {
  const query = request.query.get('query');
  if (!query) {
    return problem(400, 'Invalid Request', 'One or more parameters to your request was invalid.', {
      errors: [{ parameters: { query: [] }, message: 'The `query` query parameter can not be empty' }],
    });
  }
  const terms = query.split(/\s+/).filter(Boolean);
  const words = terms.filter((term) => !/^-?(is|has):/.test(term)).map((word) => word.toLowerCase());
  const matches = recorded.data.filter(
    (tweet) =>
      words.every((word) => tweet.text.toLowerCase().includes(word)) &&
      (!terms.includes('-is:retweet') || !isType(tweet, 'retweeted')) &&
      (!terms.includes('-is:reply') || !isType(tweet, 'replied_to')) &&
      (!terms.includes('has:links') || (tweet.entities?.urls?.length ?? 0) > 0) &&
      (!terms.includes('has:images') || hasPhoto(tweet)),
  );
  return tweetPage(request, matches, 10);
}

function users(request: FakeRequest, list: ApiUser[]): ApiObject[] {
  return list.map((user) => pick(user, ['id', 'name', 'username'], listParam(request.query, 'user.fields')));
}

type Handler = (request: FakeRequest, me: string, id: string, kind: string) => FakeResponse;

const byAuthors = (ids: string[]) => recorded.data.filter((tweet) => ids.includes(tweet.author_id));
const forbiddenUnless = (allowed: boolean) =>
  allowed ? undefined : problem(403, 'Forbidden', 'You are not permitted to perform this action.');

/** Each endpoint: its path (captures: an id, then a kind where the path has one) and its answer. */
const ROUTES: [RegExp, Handler][] = [
  [/^\/2\/tweets\/search\/recent$/, (request) => badMaxResults(request.query, 10, 100) ?? search(request)],
  [
    /^\/2\/users\/(\d+)\/tweets$/,
    (request, _me, id) =>
      badMaxResults(request.query, 5, 100) ?? tweetPage(request, excluded(request, byAuthors([id])), 10),
  ],
  [
    /^\/2\/users\/(\d+)\/timelines\/reverse_chronological$/,
    (request, me, id) =>
      forbiddenUnless(id === me) ??
      badMaxResults(request.query, 1, 100) ??
      tweetPage(request, excluded(request, byAuthors([me, ME.id, ...FOLLOWING.map((user) => user.id)])), 100),
  ],
  [
    /^\/2\/users\/(\d+)\/(owned_lists|followed_lists)$/,
    (request, me, id, kind) =>
      forbiddenUnless(id === me) ??
      badMaxResults(request.query, 1, 100) ?? {
        body: fixture(kind === 'owned_lists' ? 'owned-lists.json' : 'followed-lists.json'),
      },
  ],
  [
    /^\/2\/users\/(\d+)\/following$/,
    (request, me, id) => {
      const list = id === me ? users(request, FOLLOWING) : [];
      return (
        badMaxResults(request.query, 1, 1000) ?? { body: { data: list, meta: { result_count: list.length } } }
      );
    },
  ],
  [
    /^\/2\/lists\/(\d+)\/tweets$/,
    (request, _me, id) => {
      if (!LIST_IDS.includes(id)) return { body: { errors: [notFound('list', 'id', id)] } };
      return badMaxResults(request.query, 1, 100) ?? tweetPage(request, byAuthors(membersOf(id)), 100);
    },
  ],
  [
    /^\/2\/users\/by\/username\/(\w{1,15})$/,
    (request, _me, name) => {
      const user = recorded.includes.users.find(
        (candidate) => candidate.username.toLowerCase() === name.toLowerCase(),
      );
      return {
        body: user ? { data: users(request, [user])[0] } : { errors: [notFound('user', 'username', name)] },
      };
    },
  ],
  [
    /^\/2\/users\/by$/,
    (request) => {
      const names = [...listParam(request.query, 'usernames')];
      const isNamed = (user: ApiUser, name: string) => name.toLowerCase() === user.username.toLowerCase();
      const found = recorded.includes.users.filter((user) => names.some((name) => isNamed(user, name)));
      const missing = names.filter((name) => !found.some((user) => isNamed(user, name)));
      return {
        body: {
          ...(found.length > 0 ? { data: users(request, found) } : {}),
          ...(missing.length > 0
            ? { errors: missing.map((name) => notFound('user', 'username', name)) }
            : {}),
        },
      };
    },
  ],
];

function route(request: FakeRequest, me: string): FakeResponse | undefined {
  for (const [path, handler] of ROUTES) {
    const match = path.exec(request.path);
    if (match) return handler(request, me, match[1] ?? '', match[2] ?? '');
  }
  return undefined;
}

/** Whether a token granted `scopes` may call `path`. */
function scopesCover(path: string, scopes: string[] | undefined): boolean {
  const needed = SCOPES.find(([pattern]) => pattern.test(path))?.[1] ?? TWEETS;
  return needed.every((scope) => scopes?.includes(scope));
}

export interface FakeX extends FakeProvider {
  /** Every request answered, for tests that check what a connector asked X for. */
  received: { path: string; query: URLSearchParams }[];
  /** The access tier of the app the tokens of `accountId` (of every account, without one) were issued to. */
  setTier(tier: FakeXTier, accountId?: string): void;
}

export function twitterFake(): FakeX {
  const received: { path: string; query: URLSearchParams }[] = [];
  let defaultTier: FakeXTier = 'basic';
  const tiers = new Map<string, FakeXTier>();
  return {
    prefix: '/twitter',
    env: { TWITTER_API_BASE_URL: '/2' },
    received,
    setTier(tier, accountId) {
      if (accountId === undefined) {
        defaultTier = tier;
        tiers.clear();
      } else tiers.set(accountId, tier);
    },
    handle(request) {
      received.push({ path: request.path, query: request.query });
      const grant = fakeBearerGrant(request, 'twitter');
      if (grant === undefined) return UNAUTHORIZED;
      // X checks the app's access before the token's scopes.
      const tier = tiers.get(grant.accountId) ?? defaultTier;
      if (tier === 'not-enrolled') return NOT_ENROLLED;
      if (tier === 'free') return FREE_TIER;
      if (!scopesCover(request.path, grant.scopes)) return MISSING_SCOPE;
      return (
        route(request, grant.accountId) ?? problem(404, 'Not Found Error', 'Sorry, that page does not exist.')
      );
    },
  };
}
