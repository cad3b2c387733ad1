import {
  ACCOUNT_PROVIDER_LABELS,
  accountProviderOf,
  type ConnectPathName,
  connectAccountMessage,
  connectedAccountsResponseSchema,
} from '@digest/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/app/config';
import { connectedAccounts } from '#server/db/schema';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { deriveKey } from '#server/platform/crypto';
import { SourceError } from '#server/sources/source-error';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { type FakeProvider, type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import {
  FAKE_OAUTH_ACCOUNTS,
  FAKE_OAUTH_CREDENTIALS,
  fakeOAuth,
  oauthFakeProviders,
  readFakeAccessToken,
} from '#test/fakes/providers/oauth';
import { createAccountTokens } from './account-tokens';
import { createAccountProviders } from './accounts.providers';
import { CONNECT_STATE_COOKIE } from './accounts.routes';
import { createTokenCipher } from './token-cipher';

/** The text the web app shows for a failed connect's redirect: its code and provider only, no text. */
const shownFor = (back: URL) =>
  connectAccountMessage(
    back.searchParams.get('error'),
    ACCOUNT_PROVIDER_LABELS[accountProviderOf(back.searchParams.get('provider') as ConnectPathName)],
  );

type PathName = 'google' | 'twitter' | 'stripe';

const [ADA_GOOGLE, GRACE_GOOGLE] = FAKE_OAUTH_ACCOUNTS.google;
const [ADA_TWITTER] = FAKE_OAUTH_ACCOUNTS.twitter;
const [ENGINES_STRIPE] = FAKE_OAUTH_ACCOUNTS.stripe;

/**
 * Stripe's `GET /v1/account` as the platform sees a connected account (secret key + Stripe-Account header),
 * for the business name shown on the accounts page.
 */
const stripeAccountApi: FakeProvider = {
  prefix: '/stripe-api',
  env: { STRIPE_API_BASE_URL: '' },
  handle(request) {
    if (request.method !== 'GET' || request.path !== '/v1/account') return undefined;
    if (request.headers.authorization !== `Bearer ${FAKE_OAUTH_CREDENTIALS.STRIPE_SECRET_KEY}`) {
      return {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      };
    }
    const account = FAKE_OAUTH_ACCOUNTS.stripe.find(
      (candidate) => candidate.id === request.headers['stripe-account'],
    );
    if (!account)
      return { status: 403, body: { error: { type: 'invalid_request_error', message: 'No access' } } };
    return { body: { object: 'account', ...account } };
  },
};

const clock = testClock(new Date());
const APP_SECRET = 'accounts-routes-test-secret-'.padEnd(64, 'x');
let fakes: FakeProviders;
let t: TestApi;

beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [...oauthFakeProviders, stripeAccountApi] });
  t = await startTestApi({ fakes, clock, appSecret: APP_SECRET });
});

/**
 * The connected accounts of another process (a worker beside the API) on the same database: its own
 * in-process state, the same APP_SECRET and providers.
 */
function anotherProcess() {
  const logger = pino({ level: 'silent' });
  const config = loadConfig(fakes.env);
  return createAccountTokens({
    db: t.database.db,
    clock,
    logger,
    appUrl: 'http://app.test',
    cipher: createTokenCipher(deriveKey(APP_SECRET, 'provider-tokens')),
    // Two instances here stand for two processes, whichever database the tests run on.
    lockAcrossProcesses: true,
    providers: createAccountProviders(config.oauth, {
      stripeApiUrl: config.providers.baseUrls.stripeApi,
      logger,
    }),
  });
}
afterAll(async () => {
  await t?.close();
  await fakes?.close();
});
beforeEach(() => {
  fakeOAuth.reset();
  fakes.resetHits();
  for (const prefix of ['/google-oauth', '/twitter-oauth', '/stripe-connect'])
    fakes.setFailure(prefix, undefined);
});

function cookieOf(setCookie: string | string[] | undefined) {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const pair = header?.split(';')[0] ?? '';
  expect(pair).toMatch(new RegExp(`^${CONNECT_STATE_COOKIE}=.+`));
  return pair;
}

/** The web app's part: asks to connect, with the bearer token. Answers the start address and the cookie. */
async function requestConnect(user: TestUser, provider: PathName, body: object = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/auth/${provider}/tokens`,
    headers: user.headers,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { url: new URL(response.json().url), cookie: cookieOf(response.headers['set-cookie']) };
}

/** The browser's part: our start address, the provider (real HTTP, it consents at once), our callback. */
async function browse(user: TestUser, start: { url: URL; cookie: string }) {
  const browser = { cookie: start.cookie, 'x-forwarded-for': user.ip };
  const go = await t.app.inject({ method: 'GET', url: start.url.pathname, headers: browser });
  expect(go.statusCode, go.body).toBe(302);
  const authorize = String(go.headers.location);
  const consent = await fetch(authorize, { redirect: 'manual' });
  expect(consent.status, await consent.clone().text()).toBe(302);
  const callback = new URL(String(consent.headers.get('location')));
  const done = await t.app.inject({
    method: 'GET',
    url: callback.pathname + callback.search,
    headers: browser,
  });
  return { authorize: new URL(authorize), callback, done, back: new URL(String(done.headers.location)) };
}

async function connect(user: TestUser, provider: PathName, body: object = {}) {
  return browse(user, await requestConnect(user, provider, body));
}

async function rowsOf(userId: string) {
  return t.database.db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId));
}

async function listOf(user: TestUser) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/data-sources/social-accounts/list',
    headers: user.headers,
  });
  expect(response.statusCode).toBe(200);
  return connectedAccountsResponseSchema.parse(response.json()).accounts;
}

const logout = (user: TestUser, tokenId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/data-sources/social-accounts/${tokenId}/logout`,
    headers: user.headers,
  });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

describe('connecting a Google account', () => {
  it('goes to Google with state, PKCE S256, a nonce, the calendar scope and offline access', async () => {
    const user = await signUp(t);
    const start = await requestConnect(user, 'google');
    expect(start.url.href).toBe('http://app.test/api/auth/google/tokens');
    const go = await t.app.inject({
      method: 'GET',
      url: start.url.pathname,
      headers: { cookie: start.cookie },
    });
    const authorize = new URL(String(go.headers.location));
    expect(authorize.origin + authorize.pathname).toBe(`${fakes.origin}/google-oauth/o/oauth2/v2/auth`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: FAKE_OAUTH_CREDENTIALS.GOOGLE_CLIENT_ID,
      response_type: 'code',
      redirect_uri: 'http://app.test/api/auth/google/tokens/callback',
      scope: 'openid email profile https://www.googleapis.com/auth/calendar.readonly',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(authorize.searchParams.get('state')).toBe(start.cookie.split('=')[1]);
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
  });

  it('stores the account with its tokens encrypted, lists it without tokens, and returns to /accounts', async () => {
    const user = await signUp(t);
    const { back } = await connect(user, 'google');
    expect(back.href).toBe('http://app.test/accounts?connected=google');

    const accounts = await listOf(user);
    expect(accounts).toEqual([
      {
        tokenId: expect.any(String),
        tokenType: 'GOOGLE',
        email: ADA_GOOGLE?.email,
        username: null,
        profilePicture: ADA_GOOGLE?.picture,
      },
    ]);
    const tokenId = accounts[0]?.tokenId ?? '';
    const { accessToken, account } = await t.sources.accounts.accessToken(user.userId, tokenId, 'GOOGLE');
    expect(account.providerAccountId).toBe(ADA_GOOGLE?.sub);
    // The token works at the provider: the fake's UserInfo accepts it.
    const userInfo = await fetch(`${fakes.origin}/google-oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(userInfo.status).toBe(200);

    const [row] = await rowsOf(user.userId);
    expect(row?.accessTokenEnc).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row?.refreshTokenEnc).toMatch(/^v2\./);
    expect(JSON.stringify(row)).not.toContain(accessToken);
    expect(JSON.stringify(row)).not.toContain('fake-google-refresh');
    expect(row?.scopes).toContain('calendar.readonly');
    expect(row?.expiresAt?.getTime()).toBe(clock.now().getTime() + 3599 * 1000);
  });

  it('updates the same row when the same Google account is connected again, and adds another account', async () => {
    const user = await signUp(t);
    await connect(user, 'google');
    const [first] = await rowsOf(user.userId);
    await connect(user, 'google');
    const again = await rowsOf(user.userId);
    expect(again).toHaveLength(1);
    expect(again[0]?.tokenId).toBe(first?.tokenId);
    expect(again[0]?.accessTokenEnc).not.toBe(first?.accessTokenEnc);

    // Accounts are listed oldest first; the test clock stands still unless told.
    clock.advance(1000);
    fakeOAuth.useAccount('google', GRACE_GOOGLE?.sub ?? '');
    await connect(user, 'google');
    expect((await listOf(user)).map((account) => account.email)).toEqual([
      ADA_GOOGLE?.email,
      GRACE_GOOGLE?.email,
    ]);
  });

  it('returns to the page it came from (the builder)', async () => {
    const user = await signUp(t);
    const { back } = await connect(user, 'google', { returnTo: '/digestCreator' });
    expect(back.href).toBe('http://app.test/digestCreator?connected=google');
  });

  it.each(['//evil.example/accounts', 'https://evil.example/', '/\\evil.example', 'accounts'])(
    'refuses to return anywhere but a path of this site (%s)',
    async (returnTo) => {
      const user = await signUp(t);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/google/tokens',
        headers: user.headers,
        payload: { returnTo },
      });
      expect(response.statusCode).toBe(400);
    },
  );

  it('says so on the page it came from when the person cancels at Google', async () => {
    const user = await signUp(t);
    fakeOAuth.denyNext('google');
    const { back } = await connect(user, 'google', { returnTo: '/digestCreator' });
    expect(back.pathname).toBe('/digestCreator');
    expect(back.searchParams.get('error')).toBe('cancelled');
    expect(shownFor(back)).toBe('Connecting your Google account was cancelled.');
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('says connecting failed, without a JSON error page, when Google refuses the code', async () => {
    const user = await signUp(t);
    fakeOAuth.failNextGrant('google');
    const { done, back } = await connect(user, 'google');
    expect(done.statusCode).toBe(302);
    expect(back.pathname).toBe('/accounts');
    expect(back.searchParams.get('error')).toBe('failed');
    expect(shownFor(back)).toBe('Connecting your Google account failed. Please try again.');
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });
});

describe('connecting X/Twitter and Stripe accounts', () => {
  it('connects an X account with PKCE and reads its username and picture from users/me', async () => {
    const user = await signUp(t);
    const { authorize, back } = await connect(user, 'twitter');
    expect(authorize.searchParams.get('scope')).toBe(
      'tweet.read users.read follows.read list.read offline.access',
    );
    expect(back.href).toBe('http://app.test/accounts?connected=twitter');
    expect(await listOf(user)).toEqual([
      {
        tokenId: expect.any(String),
        tokenType: 'TWITTER',
        email: null,
        username: ADA_TWITTER?.username,
        profilePicture: ADA_TWITTER?.profile_image_url,
      },
    ]);
    const [row] = await rowsOf(user.userId);
    expect(row?.providerAccountId).toBe(ADA_TWITTER?.id);
    expect(row?.refreshTokenEnc).toMatch(/^v2\./);
  });

  it('connects a Stripe account: its id from the token answer, its business name from the API', async () => {
    const user = await signUp(t);
    const { authorize, back } = await connect(user, 'stripe');
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: FAKE_OAUTH_CREDENTIALS.STRIPE_CLIENT_ID,
      scope: 'read_only',
    });
    expect(back.searchParams.get('connected')).toBe('stripe');
    const [row] = await rowsOf(user.userId);
    expect(row).toMatchObject({
      provider: 'STRIPE',
      providerAccountId: ENGINES_STRIPE?.id,
      username: ENGINES_STRIPE?.business_profile.name,
      email: ENGINES_STRIPE?.email,
      // Stripe Connect tokens do not expire.
      expiresAt: null,
    });
  });
});

describe('the state of a connect flow', () => {
  it('is single use: the callback presented again is refused and changes nothing', async () => {
    const user = await signUp(t);
    const start = await requestConnect(user, 'google');
    const { callback } = await browse(user, start);
    const replay = await t.app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: { cookie: start.cookie },
    });
    expect(replay.statusCode).toBe(302);
    const back = new URL(String(replay.headers.location));
    expect(back.searchParams.get('error')).toBe('expired');
    expect(shownFor(back)).toBe('This Google connection has expired or was already used. Please try again.');
    expect(await rowsOf(user.userId)).toHaveLength(1);
  });

  it('starts once: the start address opened again goes back with an error', async () => {
    const user = await signUp(t);
    const start = await requestConnect(user, 'google');
    const first = await t.app.inject({
      method: 'GET',
      url: start.url.pathname,
      headers: { cookie: start.cookie },
    });
    expect(String(first.headers.location)).toContain(fakes.origin);
    const second = await t.app.inject({
      method: 'GET',
      url: start.url.pathname,
      headers: { cookie: start.cookie },
    });
    expect(second.statusCode).toBe(302);
    expect(shownFor(new URL(String(second.headers.location)))).toMatch(/expired or was already used/);
  });

  it('does nothing in a browser without the state cookie (a start link sent to someone else)', async () => {
    const user = await signUp(t);
    const start = await requestConnect(user, 'google');
    const elsewhere = await t.app.inject({ method: 'GET', url: start.url.pathname });
    expect(shownFor(new URL(String(elsewhere.headers.location)))).toMatch(/expired or was already used/);
  });

  it('refuses a callback from a browser whose cookie holds another flow', async () => {
    const user = await signUp(t);
    const mine = await requestConnect(user, 'google');
    const other = await requestConnect(user, 'google');
    const go = await t.app.inject({
      method: 'GET',
      url: mine.url.pathname,
      headers: { cookie: mine.cookie },
    });
    const consent = await fetch(String(go.headers.location), { redirect: 'manual' });
    const callback = new URL(String(consent.headers.get('location')));
    const done = await t.app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: { cookie: other.cookie },
    });
    expect(shownFor(new URL(String(done.headers.location)))).toMatch(/expired or was already used/);
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('refuses a callback whose state is unknown or missing', async () => {
    for (const query of ['?code=abc&state=made-up', '?code=abc']) {
      const done = await t.app.inject({ method: 'GET', url: `/api/auth/twitter/tokens/callback${query}` });
      expect(done.statusCode).toBe(302);
      const back = new URL(String(done.headers.location));
      expect(back.pathname).toBe('/accounts');
      expect(shownFor(back)).toMatch(/X \(Twitter\) connection has expired or was already used/);
    }
  });

  it('needs a signed-in user to ask for a connection', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/google/tokens', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('Log Out of a connected account', () => {
  // The fixtures' accounts are few, and a grant is revoked only when no Digest user has it connected any more:
  // each test starts with nobody connected.
  beforeEach(async () => {
    await t.database.db.delete(connectedAccounts);
  });

  it('revokes the grant at Google and removes the account', async () => {
    const user = await signUp(t);
    await connect(user, 'google');
    const [account] = await listOf(user);
    const response = await logout(user, account?.tokenId ?? '');
    expect(response.statusCode).toBe(204);
    expect(fakes.hits('/google-oauth', '/revoke')).toBe(1);
    expect(fakeOAuth.revocations('google')).toEqual([expect.stringMatching(/^fake-google-refresh\./)]);
    expect(await listOf(user)).toEqual([]);
  });

  it('revokes at X and deauthorizes at Stripe', async () => {
    const user = await signUp(t);
    await connect(user, 'twitter');
    await connect(user, 'stripe');
    for (const account of await listOf(user)) {
      expect((await logout(user, account.tokenId)).statusCode).toBe(204);
    }
    expect(fakes.hits('/twitter-oauth', '/2/oauth2/revoke')).toBe(1);
    expect(fakes.hits('/stripe-connect', '/oauth/deauthorize')).toBe(1);
    expect(fakeOAuth.revocations('stripe')).toEqual([ENGINES_STRIPE?.id]);
    expect(await rowsOf(user.userId)).toEqual([]);
  });

  it('removes the account even when the provider cannot be reached', async () => {
    const user = await signUp(t);
    await connect(user, 'twitter');
    const [account] = await listOf(user);
    fakes.setFailure('/twitter-oauth', { status: 503, body: 'Service Unavailable' });
    expect((await logout(user, account?.tokenId ?? '')).statusCode).toBe(204);
    expect(fakes.hits('/twitter-oauth', '/2/oauth2/revoke')).toBe(1);
    expect(await rowsOf(user.userId)).toEqual([]);
  });

  it("answers 404 for another user's account and leaves it connected", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    await connect(owner, 'google');
    const [account] = await listOf(owner);
    const response = await logout(stranger, account?.tokenId ?? '');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No such connected account.', code: 'ACCOUNT_NOT_FOUND' });
    expect(fakes.hits('/google-oauth', '/revoke')).toBe(0);
    expect(await listOf(owner)).toHaveLength(1);
    expect(await listOf(stranger)).toEqual([]);
  });

  it('answers 404 for an id that is no account at all', async () => {
    const user = await signUp(t);
    expect((await logout(user, 'not-a-token-id')).statusCode).toBe(404);
    expect((await logout(user, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it.each([
    ['google', 'GOOGLE', '/google-oauth', '/revoke'],
    ['stripe', 'STRIPE', '/stripe-connect', '/oauth/deauthorize'],
  ] as const)(
    'leaves the %s grant alone while another Digest user still has the same account connected',
    async (provider, tokenType, prefix, revokePath) => {
      const ada = await signUp(t);
      const colleague = await signUp(t);
      await connect(ada, provider);
      await connect(colleague, provider);
      const [adaAccount] = await listOf(ada);
      const [colleagueAccount] = await listOf(colleague);
      const [adaRow] = await rowsOf(ada.userId);
      const [colleagueRow] = await rowsOf(colleague.userId);
      expect(adaRow?.providerAccountId).toBe(colleagueRow?.providerAccountId);

      expect((await logout(ada, adaAccount?.tokenId ?? '')).statusCode).toBe(204);
      expect(await rowsOf(ada.userId)).toEqual([]);
      expect(fakes.hits(prefix, revokePath)).toBe(0);
      expect(fakeOAuth.revocations(provider)).toEqual([]);
      // The colleague's grant still works at the provider.
      const { accessToken } = await t.sources.accounts.accessToken(
        colleague.userId,
        colleagueAccount?.tokenId ?? '',
        tokenType,
      );
      expect(readFakeAccessToken(provider, accessToken)).toEqual({
        accountId: colleagueRow?.providerAccountId,
      });

      // The last one to log out ends the grant.
      expect((await logout(colleague, colleagueAccount?.tokenId ?? '')).statusCode).toBe(204);
      expect(fakes.hits(prefix, revokePath)).toBe(1);
      expect(fakeOAuth.revocations(provider)).toHaveLength(1);
    },
  );
});

describe('access tokens for the connectors', () => {
  it("refuses another user's account as not connected", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    await connect(owner, 'google');
    const [account] = await listOf(owner);
    const error = await refusal(
      t.sources.accounts.accessToken(stranger.userId, account?.tokenId ?? '', 'GOOGLE'),
    );
    expect(error.kind).toBe('not_connected');
    // Nor is it found under another provider, or by an id that is not one.
    expect(
      (await refusal(t.sources.accounts.accessToken(owner.userId, account?.tokenId ?? '', 'TWITTER'))).kind,
    ).toBe('not_connected');
    expect((await refusal(t.sources.accounts.accessToken(owner.userId, 'nope', 'GOOGLE'))).kind).toBe(
      'not_connected',
    );
  });

  it('refreshes an expired Google token once, even for many concurrent callers, and keeps the refresh token', async () => {
    const user = await signUp(t);
    await connect(user, 'google');
    const [account] = await listOf(user);
    const tokenId = account?.tokenId ?? '';
    const [before] = await rowsOf(user.userId);
    clock.advance(3600 * 1000);
    fakes.resetHits();

    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.sources.accounts.accessToken(user.userId, tokenId, 'GOOGLE')),
    );
    expect(fakes.hits('/google-oauth', '/token')).toBe(1);
    expect(new Set(results.map((result) => result.accessToken)).size).toBe(1);
    const [after] = await rowsOf(user.userId);
    expect(after?.expiresAt?.getTime()).toBe(clock.now().getTime() + 3599 * 1000);
    expect(after?.refreshTokenEnc).toBe(before?.refreshTokenEnc);

    // Fresh now: no further refresh.
    await t.sources.accounts.accessToken(user.userId, tokenId, 'GOOGLE');
    expect(fakes.hits('/google-oauth', '/token')).toBe(1);
  });

  it('refreshes an expired X token once across two processes: the one that waited uses the new token', async () => {
    const user = await signUp(t);
    await connect(user, 'twitter');
    const [account] = await listOf(user);
    const tokenId = account?.tokenId ?? '';
    const [before] = await rowsOf(user.userId);
    clock.advance(7200 * 1000);
    fakes.resetHits();

    const api = anotherProcess();
    const worker = anotherProcess();
    // X refuses a rotated refresh token used twice: a second refresh would fail as "reconnect your account".
    // A slow X keeps the first renewal under way while the other process reads the row.
    fakes.setLatency(150);
    const [fromApi, fromWorker] = await Promise.all([
      api.accessToken(user.userId, tokenId, 'TWITTER'),
      worker.accessToken(user.userId, tokenId, 'TWITTER'),
    ]).finally(() => fakes.setLatency(0));
    expect(fakes.hits('/twitter-oauth', '/2/oauth2/token')).toBe(1);
    expect(fromWorker.accessToken).toBe(fromApi.accessToken);
    expect(readFakeAccessToken('twitter', fromApi.accessToken)).toMatchObject({ accountId: ADA_TWITTER?.id });
    const [after] = await rowsOf(user.userId);
    expect(after?.refreshTokenEnc).not.toBe(before?.refreshTokenEnc);

    // The rotated refresh token was stored: the next renewal, by either process, works.
    clock.advance(7200 * 1000);
    await worker.accessToken(user.userId, tokenId, 'TWITTER');
    expect(fakes.hits('/twitter-oauth', '/2/oauth2/token')).toBe(2);
  });

  it('stores the rotated X refresh token, so the next refresh works too', async () => {
    const user = await signUp(t);
    await connect(user, 'twitter');
    const [account] = await listOf(user);
    const tokenId = account?.tokenId ?? '';
    for (const round of [1, 2]) {
      const [before] = await rowsOf(user.userId);
      clock.advance(7200 * 1000);
      await t.sources.accounts.accessToken(user.userId, tokenId, 'TWITTER');
      const [after] = await rowsOf(user.userId);
      expect(after?.refreshTokenEnc, `round ${round}`).not.toBe(before?.refreshTokenEnc);
    }
    expect(fakes.hits('/twitter-oauth', '/2/oauth2/token')).toBe(3);
  });

  it('answers not connected when the provider refuses the refresh, and keeps the account listed', async () => {
    const user = await signUp(t);
    await connect(user, 'twitter');
    const [account] = await listOf(user);
    clock.advance(7200 * 1000);
    fakeOAuth.failNextGrant('twitter');
    const error = await refusal(
      t.sources.accounts.accessToken(user.userId, account?.tokenId ?? '', 'TWITTER'),
    );
    expect(error.kind).toBe('not_connected');
    expect(error.message).toBe(
      'X (Twitter) no longer accepts the connected account: connect it again on the Connected accounts page.',
    );
    // (Read from the database: the test clock moved past the user's own session.)
    expect(await rowsOf(user.userId)).toHaveLength(1);
  });

  it('answers a provider outage as an upstream error, not as disconnected', async () => {
    const user = await signUp(t);
    await connect(user, 'google');
    const [account] = await listOf(user);
    clock.advance(3600 * 1000);
    fakes.setFailure('/google-oauth', { status: 503, body: 'Service Unavailable' });
    const error = await refusal(
      t.sources.accounts.accessToken(user.userId, account?.tokenId ?? '', 'GOOGLE'),
    );
    expect(error.kind).toBe('upstream');
  });

  it('refuses a stored token that was altered: it fails to decrypt', async () => {
    const user = await signUp(t);
    await connect(user, 'stripe');
    const [row] = await rowsOf(user.userId);
    const [version, iv, tag, ciphertext = ''] = (row?.accessTokenEnc ?? '').split('.');
    const altered = [version, iv, tag, (ciphertext[0] === 'A' ? 'B' : 'A') + ciphertext.slice(1)].join('.');
    await t.database.db
      .update(connectedAccounts)
      .set({ accessTokenEnc: altered })
      .where(eq(connectedAccounts.tokenId, row?.tokenId ?? ''));
    const error = await refusal(t.sources.accounts.accessToken(user.userId, row?.tokenId ?? '', 'STRIPE'));
    expect(error.kind).toBe('not_connected');
  });

  it("refuses tokens copied from another user's row: they are bound to their own row", async () => {
    const ada = await signUp(t);
    const mallory = await signUp(t);
    await connect(ada, 'google');
    fakeOAuth.useAccount('google', GRACE_GOOGLE?.sub ?? '');
    await connect(mallory, 'google');
    const [adaRow] = await rowsOf(ada.userId);
    const [malloryRow] = await rowsOf(mallory.userId);
    // Someone who can write the table (not read the key) moves Ada's sealed tokens into Mallory's row.
    await t.database.db
      .update(connectedAccounts)
      .set({ accessTokenEnc: adaRow?.accessTokenEnc, refreshTokenEnc: adaRow?.refreshTokenEnc })
      .where(eq(connectedAccounts.tokenId, malloryRow?.tokenId ?? ''));
    const error = await refusal(
      t.sources.accounts.accessToken(mallory.userId, malloryRow?.tokenId ?? '', 'GOOGLE'),
    );
    expect(error.kind).toBe('not_connected');
    // Ada's own row still opens.
    const own = await t.sources.accounts.accessToken(ada.userId, adaRow?.tokenId ?? '', 'GOOGLE');
    expect(readFakeAccessToken('google', own.accessToken)).toEqual({ accountId: ADA_GOOGLE?.sub });
  });
});

describe('the connect-state cookie over https', () => {
  let secure: TestApi;
  beforeAll(async () => {
    secure = await startTestApi({ database: t.database, fakes, clock, appUrl: 'https://app.test' });
  });
  afterAll(async () => {
    await secure?.close();
  });

  it('is __Secure- prefixed and Secure, on the connect path only, and the bare name is not read', async () => {
    const user = await signUp(secure);
    const started = await secure.app.inject({
      method: 'POST',
      url: '/api/auth/google/tokens',
      headers: user.headers,
      payload: {},
    });
    expect(started.statusCode, started.body).toBe(200);
    const setCookie = String(started.headers['set-cookie']);
    expect(setCookie).toMatch(
      new RegExp(`^__Secure-${CONNECT_STATE_COOKIE}=[^;]+; Path=/api/auth/google/tokens; .*; Secure$`),
    );
    const value = setCookie.split(';')[0]?.split('=')[1] ?? '';
    const start = new URL(started.json().url).pathname;

    // A state planted under the bare name (plain http, or a sibling subdomain) is not a state here.
    const planted = await secure.app.inject({
      method: 'GET',
      url: start,
      headers: { cookie: `${CONNECT_STATE_COOKIE}=${value}`, 'x-forwarded-for': user.ip },
    });
    expect(planted.statusCode).toBe(302);
    expect(String(planted.headers.location)).toMatch(/^https:\/\/app\.test\/accounts\?error=/);

    const go = await secure.app.inject({
      method: 'GET',
      url: start,
      headers: { cookie: `__Secure-${CONNECT_STATE_COOKIE}=${value}`, 'x-forwarded-for': user.ip },
    });
    expect(go.statusCode).toBe(302);
    expect(new URL(String(go.headers.location)).origin).toBe(fakes.origin);
  });
});

describe('a server without provider credentials', () => {
  let bare: TestApi;
  beforeAll(async () => {
    bare = await startTestApi({ database: t.database });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it.each([
    ['google', 'Google'],
    ['twitter', 'X (Twitter)'],
    ['stripe', 'Stripe'],
  ])('answers 503 to connecting %s, saying it is not configured', async (provider, label) => {
    const user = await signUp(bare);
    const response = await bare.app.inject({
      method: 'POST',
      url: `/api/auth/${provider}/tokens`,
      headers: user.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: `${label} is not configured on this server`,
      code: 'ACCOUNT_PROVIDER_NOT_CONFIGURED',
    });
  });

  it('reports every provider as not configured, where the fakes make them all configured', async () => {
    const without = await signUp(bare);
    const withFakes = await signUp(t);
    const providersOf = async (api: TestApi, user: TestUser) =>
      (
        await api.app.inject({
          method: 'GET',
          url: '/api/data-sources/social-accounts/providers',
          headers: user.headers,
        })
      ).json();
    expect(await providersOf(bare, without)).toEqual({
      providers: [
        { provider: 'GOOGLE', configured: false },
        { provider: 'TWITTER', configured: false },
        { provider: 'STRIPE', configured: false },
      ],
    });
    expect(
      (await providersOf(t, withFakes)).providers.every((entry: { configured: boolean }) => entry.configured),
    ).toBe(true);
  });
});
