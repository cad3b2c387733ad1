import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import {
  FLOW_ERROR_CODES,
  SOCIAL_PROVIDERS,
  type SocialProvider,
  socialSignInMessage,
} from '@digest/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  type MutableResponse,
  type MutableToken,
  OAuth2Server,
  type TokenRequestIncomingMessage,
} from 'oauth2-mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/app/config';
import { buildHttpServer, type HttpServer } from '#server/app/http-server';
import type { DatabaseHandle } from '#server/db/client';
import { oauthStates, sessions, socialIdentities, socialTickets, users } from '#server/db/schema';
import { insertUser } from '#server/modules/users/users.repository';
import type { Clock } from '#server/platform/clock';
import { hashToken } from '#server/platform/crypto';
import { createLogger } from '#server/platform/logger';
import { cookieValueOf, refreshTokenOf, setCookieOf } from '#server-test/session-cookies';
import { createTestDatabase } from '#server-test/test-database';
import { type AccessTokens, createAccessTokens } from '../access-tokens';
import { startSession } from '../auth.usecases';
import { createAuthenticate } from '../authenticate';
import { createSessionCheck, type SessionCheck } from '../session-check';
import { PROVIDER_LABELS } from './social.errors';
import { createSocialProviders, type SocialProviders } from './social.providers';
import { BINDING_COOKIE, SOCIAL_RATE_LIMITS, STATE_COOKIE, socialRoutes } from './social.routes';

const APP_URL = 'http://localhost:3000';
const CLIENTS = {
  google: { id: 'google-client', secret: 'google-secret-0123456789' },
  twitter: { id: 'twitter-client', secret: 'twitter-secret-0123456789' },
  facebook: { id: 'facebook-app', secret: 'facebook-secret-0123456789' },
} as const;

let database: DatabaseHandle;
let mock: OAuth2Server;
let issuer: string;
let app: HttpServer;
let accessTokens: AccessTokens;
let sessionCheck: SessionCheck;
let clockOffsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + clockOffsetMs) };
const logLines: string[] = [];
/** Every code, state, ticket and token seen in a flow: none may reach the log. */
const secretsSeen = new Set<string>(Object.values(CLIENTS).map((client) => client.secret));

// What the local provider does next; each test sets what it needs.
let idTokenClaims: Record<string, unknown> = {};
let userinfoBody: Record<string, unknown> = {};
let tamperTokenResponse: ((body: Record<string, unknown>) => MutableResponse | undefined) | undefined;
let tokenRequests: { body: Record<string, unknown>; authorization: string | undefined }[] = [];
let userinfoRequests: { url: string; authorization: string | undefined }[] = [];

const sha256Base64url = (value: string) => createHash('sha256').update(value).digest('base64url');
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

function clientOf(request: TokenRequestIncomingMessage): string | undefined {
  if (typeof request.body.client_id === 'string') return request.body.client_id;
  const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
  return basic?.[1]
    ? decodeURIComponent(Buffer.from(basic[1], 'base64').toString().split(':')[0] ?? '')
    : undefined;
}

function loggerSink() {
  return createLogger({
    level: 'info',
    pretty: false,
    destination: new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
}

async function buildApp(providers: SocialProviders) {
  const server = await buildHttpServer({
    logger: loggerSink(),
    appUrl: APP_URL,
    apiDocs: true,
    webDistDir: '/nonexistent-web-dist',
    health: {
      databaseKind: database.kind,
      roles: ['api'],
      pingDatabase: async () => {},
      pingQueue: async () => {},
    },
    apiPlugins: [
      socialRoutes({
        db: database.db,
        clock,
        accessTokens,
        sessions: sessionCheck,
        appUrl: APP_URL,
        mailDomain: 'localhost',
        authenticate: createAuthenticate({ clock, accessTokens, sessions: sessionCheck }),
        providers,
      }),
    ],
  });
  await server.ready();
  return server;
}

function configuredProviders(overrides: Record<string, string> = {}) {
  return createSocialProviders(
    loadConfig({
      GOOGLE_CLIENT_ID: CLIENTS.google.id,
      GOOGLE_CLIENT_SECRET: CLIENTS.google.secret,
      GOOGLE_ISSUER: issuer,
      TWITTER_CLIENT_ID: CLIENTS.twitter.id,
      TWITTER_CLIENT_SECRET: CLIENTS.twitter.secret,
      TWITTER_AUTHORIZATION_URL: `${issuer}/authorize`,
      TWITTER_TOKEN_URL: `${issuer}/token`,
      TWITTER_USERINFO_URL: `${issuer}/userinfo`,
      FACEBOOK_CLIENT_ID: CLIENTS.facebook.id,
      FACEBOOK_CLIENT_SECRET: CLIENTS.facebook.secret,
      FACEBOOK_AUTHORIZATION_URL: `${issuer}/authorize`,
      FACEBOOK_TOKEN_URL: `${issuer}/token`,
      FACEBOOK_USERINFO_URL: `${issuer}/userinfo`,
      ...overrides,
    }).oauth,
  );
}

beforeAll(async () => {
  mock = new OAuth2Server();
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  issuer = mock.issuer.url ?? '';

  mock.service.on('beforeTokenSigning', (token: MutableToken) => {
    // The ID token is the one with an audience (the access token of this grant has none).
    if ('aud' in token.payload) Object.assign(token.payload, idTokenClaims);
  });
  mock.service.on('beforeResponse', (response: MutableResponse, request: TokenRequestIncomingMessage) => {
    tokenRequests.push({ body: { ...request.body }, authorization: request.headers.authorization });
    if (response.body === '') return;
    // X and Facebook are plain OAuth 2.0: their token endpoints answer no ID token.
    if (clientOf(request) !== CLIENTS.google.id) delete response.body.id_token;
    for (const value of [response.body.access_token, response.body.id_token, request.body.code]) {
      if (typeof value === 'string') secretsSeen.add(value);
    }
    const replacement = tamperTokenResponse?.(response.body);
    if (replacement) Object.assign(response, replacement);
  });
  mock.service.on('beforeUserinfo', (response: MutableResponse, request: IncomingMessage) => {
    userinfoRequests.push({ url: request.url ?? '', authorization: request.headers.authorization });
    response.body = userinfoBody;
  });

  database = await createTestDatabase();
  accessTokens = createAccessTokens(new Uint8Array(randomBytes(32)), clock);
  sessionCheck = createSessionCheck({ db: database.db, ttlMs: 1000 });
  app = await buildApp(configuredProviders());
});

afterEach(() => {
  clockOffsetMs = 0;
  idTokenClaims = {};
  userinfoBody = {};
  tamperTokenResponse = undefined;
  tokenRequests = [];
  userinfoRequests = [];
});

afterAll(async () => {
  await app?.close();
  await mock?.stop();
  await database?.close();
});

type Mode = 'signin' | 'signup';

const locationOf = (response: LightMyRequestResponse) => new URL(String(response.headers.location));
const stateCookieOf = (response: LightMyRequestResponse) =>
  setCookieOf(response, STATE_COOKIE)?.split(';')[0] ?? '';

/** Our start endpoint, then the provider's authorize endpoint: where the provider sends the browser back. */
async function startAtProvider(provider: SocialProvider, mode: Mode, server = app) {
  const start = await server.inject({ method: 'GET', url: `/api/auth/${mode}/${provider}` });
  expect(start.statusCode).toBe(302);
  const authorizeUrl = locationOf(start);
  const state = authorizeUrl.searchParams.get('state') ?? '';
  secretsSeen.add(state);
  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callbackUrl = new URL(atProvider.headers.get('location') ?? '');
  const binding = cookieValueOf(start, BINDING_COOKIE) ?? '';
  secretsSeen.add(binding);
  return { start, authorizeUrl, callbackUrl, cookie: stateCookieOf(start), state, binding };
}

/** Our callback endpoint, as the browser calls it after the provider. */
async function callBack(callbackUrl: URL, cookie: string | undefined, server = app) {
  expect(callbackUrl.origin).toBe(APP_URL);
  const response = await server.inject({
    method: 'GET',
    url: `${callbackUrl.pathname}${callbackUrl.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(302);
  const landing = locationOf(response);
  const ticket = landing.searchParams.get('ticket');
  if (ticket) secretsSeen.add(ticket);
  return { response, landing };
}

async function signInWith(provider: SocialProvider, mode: Mode) {
  const started = await startAtProvider(provider, mode);
  return { ...started, ...(await callBack(started.callbackUrl, started.cookie)) };
}

/**
 * `POST /api/auth/social/ticket` as the web app makes it: the ticket of a finished flow, the binding cookie of
 * the browser that started it (unless another is given), the app's header, and an access token if signed in.
 */
async function redeemTicket(
  ticket: string | null,
  { binding, accessToken }: { binding?: string | undefined; accessToken?: string } = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/social/ticket',
    headers: {
      'x-digest-session': '1',
      ...(binding ? { cookie: `${BINDING_COOKIE}=${binding}` } : {}),
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    payload: { ticket },
  });
  if (response.statusCode === 200) {
    secretsSeen.add(response.json().token.accessToken);
    secretsSeen.add(refreshTokenOf(response));
  }
  return response;
}

/** Redeems the ticket of a finished flow in the browser that started it. */
const redeem = (flow: { landing: URL; binding: string }, options: { accessToken?: string } = {}) =>
  redeemTicket(flow.landing.searchParams.get('ticket'), { binding: flow.binding, ...options });

function expectFailure(landing: URL, provider: SocialProvider, message: string | RegExp) {
  expect(`${landing.origin}${landing.pathname}`).toBe(`${APP_URL}/auth/${provider}/callback`);
  expect(landing.searchParams.get('ticket')).toBeNull();
  // Only a known code travels in the address; the app shows its own text for it.
  const code = landing.searchParams.get('error');
  expect(FLOW_ERROR_CODES).toContain(code);
  expect(socialSignInMessage(code, PROVIDER_LABELS[provider])).toMatch(message);
}

const userByEmail = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email)))[0];
const userCount = async () => (await database.db.select({ id: users.userId }).from(users)).length;

function googleAccount(overrides: Record<string, unknown> = {}) {
  const subject = unique('google-sub');
  const email = `${subject}@gmail.test`;
  idTokenClaims = { sub: subject, email, email_verified: true, name: 'Ada Lovelace', ...overrides };
  return { subject, email, ...overrides };
}

describe('GET /api/auth/providers', () => {
  it('lists the three providers and whether each has credentials', async () => {
    const response = await app.inject('/api/auth/providers');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      providers: SOCIAL_PROVIDERS.map((provider) => ({ provider, configured: true })),
    });

    const bare = await buildApp(createSocialProviders(loadConfig({}).oauth));
    try {
      expect((await bare.inject('/api/auth/providers')).json()).toEqual({
        providers: [
          { provider: 'google', configured: false },
          { provider: 'twitter', configured: false },
          { provider: 'facebook', configured: false },
        ],
      });
    } finally {
      await bare.close();
    }
  });
});

describe('starting a social sign-in', () => {
  it('redirects to the provider with a stored single-use state, PKCE S256, a nonce and our callback', async () => {
    const before = Date.now();
    const start = await app.inject({ method: 'GET', url: '/api/auth/signup/google' });
    expect(start.statusCode).toBe(302);
    expect(start.headers['cache-control']).toBe('no-store');
    const url = locationOf(start);
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/authorize`);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      client_id: CLIENTS.google.id,
      response_type: 'code',
      redirect_uri: `${APP_URL}/api/auth/signup/google/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(query.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    secretsSeen.add(query.state ?? '');

    // Stored hashed (the table holds no usable state), with its verifier, purpose and a 10-minute life.
    const [row] = await database.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, hashToken(query.state ?? '')));
    expect(row).toMatchObject({ provider: 'google', purpose: 'signup', nonce: query.nonce });
    expect(sha256Base64url(row?.codeVerifier ?? '')).toBe(query.code_challenge);
    const lifetime = (row?.expiresAt.getTime() ?? 0) - before;
    expect(lifetime).toBeGreaterThan(9.9 * 60_000);
    expect(lifetime).toBeLessThan(10.1 * 60_000);

    // The same state goes to this browser only, for our callback path only.
    const cookie = setCookieOf(start, STATE_COOKIE);
    expect(cookie).toContain(`digest_oauth_state=${query.state}`);
    expect(cookie).toContain('Path=/api/auth/signup/google/callback');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Max-Age=600');
  });

  it('asks X for the e-mail scope and Facebook for the e-mail permission, without a nonce', async () => {
    const twitter = locationOf(await app.inject('/api/auth/signin/twitter'));
    expect(twitter.searchParams.get('scope')).toBe('users.read tweet.read users.email');
    expect(twitter.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/auth/signin/twitter/callback`);
    expect(twitter.searchParams.get('code_challenge_method')).toBe('S256');
    expect(twitter.searchParams.has('nonce')).toBe(false);

    const facebook = locationOf(await app.inject('/api/auth/signup/facebook'));
    expect(facebook.searchParams.get('scope')).toBe('email public_profile');
    expect(facebook.searchParams.get('client_id')).toBe(CLIENTS.facebook.id);
    expect(facebook.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/auth/signup/facebook/callback`);
  });

  it('sends the browser back to Log in with a clear message when a provider has no credentials', async () => {
    const bare = await buildApp(createSocialProviders(loadConfig({}).oauth));
    try {
      for (const [provider, label] of [
        ['google', 'Google'],
        ['twitter', 'Twitter'],
        ['facebook', 'Facebook'],
      ] as const) {
        for (const mode of ['signin', 'signup'] as const) {
          const response = await bare.inject(`/api/auth/${mode}/${provider}`);
          expect(response.statusCode).toBe(302);
          expect(response.headers.location).toBe(`${APP_URL}/logIn?error=not_configured`);
          expect(socialSignInMessage('not_configured', label)).toBe(
            `${label} sign-in is not configured on this server.`,
          );
        }
      }
      const callback = await bare.inject('/api/auth/signin/google/callback?code=abc&state=def');
      expectFailure(locationOf(callback), 'google', 'Google sign-in is not configured on this server.');
    } finally {
      await bare.close();
    }
  });

  it('says the provider is unavailable when its discovery document cannot be read', async () => {
    const closedPort = await (async () => {
      const probe = new OAuth2Server();
      await probe.start(0, '127.0.0.1');
      const port = probe.address().port;
      await probe.stop();
      return port;
    })();
    const unreachable = await buildApp(
      configuredProviders({ GOOGLE_ISSUER: `http://127.0.0.1:${closedPort}` }),
    );
    try {
      const response = await unreachable.inject('/api/auth/signin/google');
      expect(response.statusCode).toBe(302);
      const landing = locationOf(response);
      expect(landing.pathname).toBe('/logIn');
      expect(landing.searchParams.get('error')).toBe('unavailable');
      expect(socialSignInMessage('unavailable', 'Google')).toBe(
        'Google sign-in is not available right now. Please try again later.',
      );
      expect(response.headers['set-cookie']).toBeUndefined();
    } finally {
      await unreachable.close();
    }
  });
});

describe('Google (OpenID Connect) through a local provider', () => {
  it('signs up: a confirmed account with method google, a ticket, then a session for it', async () => {
    const account = googleAccount({ name: 'Zoë Żółkiewska' });
    const flow = await signInWith('google', 'signup');

    expect(`${flow.landing.origin}${flow.landing.pathname}`).toBe(`${APP_URL}/auth/google/callback`);
    expect(flow.landing.searchParams.get('mode')).toBe('signup');
    const ticket = flow.landing.searchParams.get('ticket');
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(flow.response.headers['cache-control']).toBe('no-store');
    expect(String(flow.response.headers['set-cookie'])).toContain('digest_oauth_state=;');

    // The code went back with the PKCE verifier whose S256 the authorize request carried.
    expect(tokenRequests).toHaveLength(1);
    const tokenRequest = tokenRequests[0]?.body ?? {};
    expect(tokenRequest).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: `${APP_URL}/api/auth/signup/google/callback`,
      client_id: CLIENTS.google.id,
      client_secret: CLIENTS.google.secret,
    });
    expect(sha256Base64url(String(tokenRequest.code_verifier))).toBe(
      flow.authorizeUrl.searchParams.get('code_challenge'),
    );

    const user = await userByEmail(account.email);
    expect(user).toMatchObject({
      method: 'google',
      confirmed: true,
      fullName: 'Zoë Żółkiewska',
      passwordHash: null,
    });
    // The state is spent, and no session exists before the ticket is redeemed.
    expect(
      await database.db
        .select()
        .from(oauthStates)
        .where(eq(oauthStates.stateHash, hashToken(flow.state))),
    ).toEqual([]);
    expect(
      await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.userId ?? '')),
    ).toEqual([]);

    const redeemed = await redeem(flow);
    expect(redeemed.statusCode).toBe(200);
    const body = redeemed.json();
    expect(body.isNewUser).toBe(true);
    expect(body.user).toMatchObject({
      userId: user?.userId,
      email: account.email,
      method: 'google',
      confirmed: true,
    });
    expect(body.token).toEqual({ accessToken: expect.any(String) });
    expect(refreshTokenOf(redeemed)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The binding has done its work: the browser forgets it.
    expect(cookieValueOf(redeemed, BINDING_COOKIE)).toBe('');
    expect(await accessTokens.verify(body.token.accessToken)).toMatchObject({ userId: user?.userId });
    expect(
      await database.db
        .select()
        .from(socialIdentities)
        .where(eq(socialIdentities.userId, user?.userId ?? '')),
    ).toEqual([
      expect.objectContaining({ provider: 'google', subject: account.subject, email: account.email }),
    ]);
  });

  it('signs the same Google account in to the same user, even after its e-mail changed', async () => {
    const account = googleAccount();
    const first = await redeem(await signInWith('google', 'signup'));
    const users = await userCount();

    idTokenClaims = { ...idTokenClaims, email: `renamed-${account.email}` };
    const flow = await signInWith('google', 'signin');
    expect(flow.landing.searchParams.get('mode')).toBe('signin');
    const second = await redeem(flow);
    expect(second.statusCode).toBe(200);
    expect(second.json().isNewUser).toBe(false);
    expect(second.json().user.userId).toBe(first.json().user.userId);
    expect(await userCount()).toBe(users);
  });

  it('links a verified Google e-mail to the existing e-mail account with that address', async () => {
    const email = `${unique('owner')}@example.test`;
    const existing = await insertUser(database.db, {
      email,
      passwordHash: 'argon2-hash',
      method: 'email',
      confirmed: true,
      fullName: 'Grace Hopper',
    });
    const account = googleAccount({ email: email.toUpperCase(), name: 'Someone Else' });
    const users = await userCount();

    const redeemed = await redeem(await signInWith('google', 'signin'));
    expect(redeemed.json()).toMatchObject({
      isNewUser: false,
      user: { userId: existing.userId, method: 'email' },
    });
    expect(await userCount()).toBe(users);
    const after = await userByEmail(email);
    // A confirmed account keeps its password and name.
    expect(after).toMatchObject({ passwordHash: 'argon2-hash', fullName: 'Grace Hopper' });
    const [identity] = await database.db
      .select()
      .from(socialIdentities)
      .where(eq(socialIdentities.subject, account.subject));
    expect(identity).toMatchObject({ provider: 'google', userId: existing.userId, email });
  });

  it('takes an unconfirmed account over for the proven owner: its password and sessions end', async () => {
    const email = `${unique('squatted')}@example.test`;
    const existing = await insertUser(database.db, {
      email,
      passwordHash: 'set-by-someone',
      method: 'email',
    });
    await startSession({ db: database.db, clock, accessTokens, sessions: sessionCheck }, existing.userId);
    googleAccount({ email });

    const redeemed = await redeem(await signInWith('google', 'signin'));
    expect(redeemed.json().user.userId).toBe(existing.userId);
    expect(await userByEmail(email)).toMatchObject({ passwordHash: null, confirmed: true });
    const allSessions = await database.db.select().from(sessions).where(eq(sessions.userId, existing.userId));
    expect(allSessions).toHaveLength(2);
    expect(allSessions.filter((session) => session.revokedAt === null)).toHaveLength(1);
  });

  it('creates one account when the same new person finishes two sign-ins at once', async () => {
    const account = googleAccount();
    const first = await startAtProvider('google', 'signup');
    const second = await startAtProvider('google', 'signup');
    const landings = await Promise.all([
      callBack(first.callbackUrl, first.cookie).then(({ landing }) => ({ landing, binding: first.binding })),
      callBack(second.callbackUrl, second.cookie).then(({ landing }) => ({
        landing,
        binding: second.binding,
      })),
    ]);
    const results = await Promise.all(landings.map((landing) => redeem(landing)));
    const ids = results.map((result) => result.json().user.userId);
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBe(ids[0]);
    expect(await database.db.select().from(users).where(eq(users.email, account.email))).toHaveLength(1);
  });

  it('refuses an e-mail Google has not verified, and creates nothing', async () => {
    const account = googleAccount({ email_verified: false });
    const flow = await signInWith('google', 'signup');
    expectFailure(
      flow.landing,
      'google',
      'Your Google account has no verified e-mail address. Verify one with Google, or sign up with e-mail and password.',
    );
    expect(flow.landing.searchParams.get('mode')).toBe('signup');
    expect(await userByEmail(account.email)).toBeUndefined();
  });

  it('reads the e-mail from UserInfo when the ID token has none, for the same subject only', async () => {
    const subject = unique('google-sub');
    idTokenClaims = { sub: subject };
    userinfoBody = { sub: subject, email: `${subject}@userinfo.test`, email_verified: true, name: 'Ada' };
    const flow = await signInWith('google', 'signup');
    expect(flow.landing.searchParams.get('ticket')).toBeTruthy();
    expect(userinfoRequests).toHaveLength(1);
    expect(await userByEmail(`${subject}@userinfo.test`)).toMatchObject({
      method: 'google',
      fullName: 'Ada',
    });

    idTokenClaims = { sub: unique('google-sub') };
    userinfoBody = { sub: 'someone-else', email: 'victim@userinfo.test', email_verified: true };
    expectFailure(
      (await signInWith('google', 'signup')).landing,
      'google',
      'Google sign-in failed. Please try again.',
    );
    expect(await userByEmail('victim@userinfo.test')).toBeUndefined();
  });

  it.each([
    ['a nonce of another request', () => ({ nonce: 'another-nonce' })],
    ['another audience', () => ({ aud: 'someone-elses-client' })],
    ['another issuer', () => ({ iss: 'https://accounts.example.com' })],
    ['an expired ID token', () => ({ exp: Math.floor(Date.now() / 1000) - 3600 })],
  ])('refuses an ID token with %s', async (_case, claims) => {
    const account = googleAccount(claims());
    const flow = await signInWith('google', 'signup');
    expectFailure(flow.landing, 'google', 'Google sign-in failed. Please try again.');
    expect(await userByEmail(account.email)).toBeUndefined();
  });

  it('refuses an ID token whose signature does not match the provider keys', async () => {
    const account = googleAccount();
    tamperTokenResponse = (body) => {
      const [header, payload, signature] = String(body.id_token).split('.');
      const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, email: 'victim@example.test' })).toString(
        'base64url',
      );
      return { statusCode: 200, body: { ...body, id_token: `${header}.${forged}.${signature}` } };
    };
    const flow = await signInWith('google', 'signup');
    expectFailure(flow.landing, 'google', 'Google sign-in failed. Please try again.');
    expect(await userByEmail(account.email)).toBeUndefined();
    expect(await userByEmail('victim@example.test')).toBeUndefined();
  });

  it('shows a readable message, never the provider error body, when the token endpoint refuses', async () => {
    googleAccount();
    tamperTokenResponse = () => ({
      statusCode: 400,
      body: { error: 'invalid_grant', error_description: 'internal detail abc123' },
    });
    const flow = await signInWith('google', 'signin');
    expectFailure(flow.landing, 'google', 'Google sign-in failed. Please try again.');
    expect(flow.landing.href).not.toContain('abc123');
    expect(flow.landing.href).not.toContain('invalid_grant');
  });

  it('says the sign-in was cancelled when the person denies access at the provider', async () => {
    const { callbackUrl, cookie, state } = await startAtProvider('google', 'signin');
    const denied = new URL(`${APP_URL}${callbackUrl.pathname}`);
    denied.search = new URLSearchParams({
      error: 'access_denied',
      error_description: 'The user said <b>no</b>',
      state,
    }).toString();
    const { landing } = await callBack(denied, cookie);
    expectFailure(landing, 'google', 'Google sign-in was cancelled.');
    expect(landing.href).not.toContain('user%20said');

    const other = await startAtProvider('google', 'signin');
    const failed = new URL(`${APP_URL}${other.callbackUrl.pathname}`);
    failed.search = new URLSearchParams({ error: 'server_error', state: other.state }).toString();
    expectFailure(
      (await callBack(failed, other.cookie)).landing,
      'google',
      'Google sign-in failed. Please try again.',
    );
    expect(tokenRequests).toHaveLength(0);
  });
});

describe('the state of a sign-in', () => {
  const STATE_MESSAGE = 'This Google sign-in has expired or was already used. Please try again.';

  it('is required', async () => {
    googleAccount();
    const { callbackUrl, cookie } = await startAtProvider('google', 'signin');
    callbackUrl.searchParams.delete('state');
    expectFailure((await callBack(callbackUrl, cookie)).landing, 'google', STATE_MESSAGE);
    expect(tokenRequests).toHaveLength(0);
  });

  it('must be one this server issued', async () => {
    googleAccount();
    const { callbackUrl } = await startAtProvider('google', 'signin');
    const forged = randomBytes(32).toString('base64url');
    callbackUrl.searchParams.set('state', forged);
    expectFailure(
      (await callBack(callbackUrl, `digest_oauth_state=${forged}`)).landing,
      'google',
      STATE_MESSAGE,
    );
    expect(tokenRequests).toHaveLength(0);
  });

  it('works once: replaying a finished callback is refused', async () => {
    googleAccount();
    const started = await startAtProvider('google', 'signin');
    const first = await callBack(started.callbackUrl, started.cookie);
    expect(first.landing.searchParams.get('ticket')).toBeTruthy();
    const replay = await callBack(started.callbackUrl, started.cookie);
    expectFailure(replay.landing, 'google', STATE_MESSAGE);
    expect(String(replay.response.headers['set-cookie'])).toContain('digest_oauth_state=; Path=');
    expect(tokenRequests).toHaveLength(1);
  });

  it('must come back from the browser that started the flow (login CSRF)', async () => {
    googleAccount();
    const { callbackUrl, cookie } = await startAtProvider('google', 'signin');
    expectFailure((await callBack(callbackUrl, undefined)).landing, 'google', STATE_MESSAGE);

    // Once refused, the state is spent: the right browser cannot use it later either.
    expectFailure((await callBack(callbackUrl, cookie)).landing, 'google', STATE_MESSAGE);
    expect(tokenRequests).toHaveLength(0);
  });

  it('belongs to one provider and one mode', async () => {
    googleAccount();
    const twitter = await startAtProvider('twitter', 'signin');
    const onGoogle = new URL(`${APP_URL}/api/auth/signin/google/callback${twitter.callbackUrl.search}`);
    expectFailure((await callBack(onGoogle, twitter.cookie)).landing, 'google', STATE_MESSAGE);

    const signin = await startAtProvider('google', 'signin');
    const onSignup = new URL(`${APP_URL}/api/auth/signup/google/callback${signin.callbackUrl.search}`);
    expectFailure((await callBack(onSignup, signin.cookie)).landing, 'google', STATE_MESSAGE);
    expect(tokenRequests).toHaveLength(0);
  });

  it('is refused when it was stored before flows were bound to a browser (an upgrade mid-flow)', async () => {
    googleAccount();
    const { callbackUrl, cookie, state } = await startAtProvider('google', 'signin');
    await database.db
      .update(oauthStates)
      .set({ browserBindingHash: null })
      .where(eq(oauthStates.stateHash, hashToken(state)));
    expectFailure((await callBack(callbackUrl, cookie)).landing, 'google', STATE_MESSAGE);
    expect(tokenRequests).toHaveLength(0);
  });

  it('expires after 10 minutes', async () => {
    googleAccount();
    const { callbackUrl, cookie } = await startAtProvider('google', 'signin');
    clockOffsetMs = 10 * 60_000 + 1000;
    expectFailure((await callBack(callbackUrl, cookie)).landing, 'google', STATE_MESSAGE);
    expect(tokenRequests).toHaveLength(0);
  });

  it('is refused, not crashed on, when it comes twice in the query', async () => {
    const { callbackUrl, cookie, state } = await startAtProvider('google', 'signin');
    callbackUrl.searchParams.append('state', state);
    expectFailure(
      (await callBack(callbackUrl, cookie)).landing,
      'google',
      'Google sign-in failed. Please try again.',
    );
  });
});

describe('X/Twitter (OAuth 2.0 with PKCE) through a local provider', () => {
  it('signs up with the confirmed e-mail of /2/users/me', async () => {
    const id = unique('tw');
    userinfoBody = { data: { id, name: 'Alan Turing', username: 'alan', confirmed_email: `${id}@x.test` } };
    const flow = await signInWith('twitter', 'signup');
    expect(flow.landing.pathname).toBe('/auth/twitter/callback');
    const redeemed = await redeem(flow);
    expect(redeemed.json()).toMatchObject({
      isNewUser: true,
      user: { email: `${id}@x.test`, method: 'twitter', confirmed: true, fullName: 'Alan Turing' },
    });

    // Confidential client: HTTP Basic with the client id, plus the PKCE verifier.
    const tokenRequest = tokenRequests[0];
    expect(tokenRequest?.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENTS.twitter.id}:${CLIENTS.twitter.secret}`).toString('base64')}`,
    );
    expect(sha256Base64url(String(tokenRequest?.body.code_verifier))).toBe(
      flow.authorizeUrl.searchParams.get('code_challenge'),
    );
    const userinfo = new URL(userinfoRequests[0]?.url ?? '', issuer);
    expect(userinfo.searchParams.get('user.fields')).toBe('confirmed_email');
    expect(userinfoRequests[0]?.authorization).toMatch(/^Bearer .+/);
  });

  it('refuses an X account without a confirmed e-mail', async () => {
    userinfoBody = { data: { id: unique('tw'), name: 'No Mail', username: 'nomail' } };
    expectFailure(
      (await signInWith('twitter', 'signin')).landing,
      'twitter',
      'Your Twitter account has no verified e-mail address. Verify one with Twitter, or sign up with e-mail and password.',
    );
  });

  it('shows a readable message when X answers an error instead of the user', async () => {
    userinfoBody = { errors: [{ message: 'Unauthorized detail xyz789' }] };
    const { landing } = await signInWith('twitter', 'signin');
    expectFailure(landing, 'twitter', 'Twitter sign-in failed. Please try again.');
    expect(landing.href).not.toContain('xyz789');
  });
});

describe('Facebook (OAuth 2.0) through a local provider', () => {
  it('signs up with the e-mail of Graph /me, proving the app secret', async () => {
    const id = unique('fb');
    userinfoBody = { id, name: 'J. R. R. Tolkien', email: `${id}@facebook.test` };
    const flow = await signInWith('facebook', 'signup');
    const redeemed = await redeem(flow);
    // A name with dots is not a valid full name here: onboarding asks for one.
    expect(redeemed.json()).toMatchObject({
      isNewUser: true,
      user: { email: `${id}@facebook.test`, method: 'facebook', confirmed: true, fullName: null },
    });
    expect(tokenRequests[0]?.body).toMatchObject({
      client_id: CLIENTS.facebook.id,
      client_secret: CLIENTS.facebook.secret,
    });
    expect(tokenRequests[0]?.body.code_verifier).toEqual(expect.any(String));

    const userinfo = new URL(userinfoRequests[0]?.url ?? '', issuer);
    expect(userinfo.searchParams.get('fields')).toBe('id,name,email');
    const accessToken = (userinfoRequests[0]?.authorization ?? '').replace(/^Bearer /, '');
    expect(userinfo.searchParams.get('appsecret_proof')).toBe(
      createHmac('sha256', CLIENTS.facebook.secret).update(accessToken).digest('hex'),
    );
  });

  it('links to an account another provider created with the same e-mail', async () => {
    const id = unique('fb');
    const email = `${id}@shared.test`;
    googleAccount({ email });
    const viaGoogle = await redeem(await signInWith('google', 'signup'));
    userinfoBody = { id, name: 'Same Person', email };
    const viaFacebook = await redeem(await signInWith('facebook', 'signin'));
    expect(viaFacebook.json()).toMatchObject({
      isNewUser: false,
      user: { userId: viaGoogle.json().user.userId },
    });
  });

  it('refuses a Facebook account that shares no e-mail', async () => {
    userinfoBody = { id: unique('fb'), name: 'Private Person' };
    expectFailure(
      (await signInWith('facebook', 'signup')).landing,
      'facebook',
      'Your Facebook account has no verified e-mail address. Verify one with Facebook, or sign up with e-mail and password.',
    );
  });
});

describe('POST /api/auth/social/ticket', () => {
  it('works once', async () => {
    googleAccount();
    const flow = await signInWith('google', 'signup');
    expect((await redeem(flow)).statusCode).toBe(200);
    const again = await redeem(flow);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'INVALID_TICKET',
      message: 'This sign-in link has expired or was already used. Please sign in again.',
    });
  });

  it('binds the flow to the browser that started it: an HttpOnly cookie, stored hashed with the state and the ticket', async () => {
    googleAccount();
    const started = await startAtProvider('google', 'signup');
    expect(started.binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(setCookieOf(started.start, BINDING_COOKIE)).toBe(
      `${BINDING_COOKIE}=${started.binding}; Path=/api/auth/social/ticket; Max-Age=720; HttpOnly; SameSite=Strict`,
    );
    const [state] = await database.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, hashToken(started.state)));
    expect(state?.browserBindingHash).toBe(hashToken(started.binding));
    const { landing } = await callBack(started.callbackUrl, started.cookie);
    const [ticket] = await database.db
      .select()
      .from(socialTickets)
      .where(eq(socialTickets.ticketHash, hashToken(landing.searchParams.get('ticket') ?? '')));
    expect(ticket?.browserBindingHash).toBe(hashToken(started.binding));
  });

  it("is refused in any other browser (login CSRF): a victim opening an attacker's ticket is not signed in", async () => {
    googleAccount();
    const victims = await startAtProvider('google', 'signin');
    const sessionsBefore = (await database.db.select().from(sessions)).length;
    // A victim without a flow of their own, and one with their own flow under way.
    for (const binding of [undefined, victims.binding]) {
      const attackers = await signInWith('google', 'signin');
      const refused = await redeemTicket(attackers.landing.searchParams.get('ticket'), { binding });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        code: 'TICKET_OF_ANOTHER_BROWSER',
        message: 'This sign-in was started in another browser. Start it again here.',
      });
      expect(setCookieOf(refused, 'digest_refresh')).toBeUndefined();
      // The attempt spent it: a ticket that reached another browser is of no use to anyone.
      expect((await redeem(attackers)).json().code).toBe('INVALID_TICKET');
    }
    expect((await database.db.select().from(sessions)).length).toBe(sessionsBefore);
  });

  it("never replaces another user's session: refused while signed in as someone else, fine for the same user", async () => {
    const someone = await insertUser(database.db, {
      email: `${unique('other')}@example.com`,
      method: 'email',
    });
    const signedIn = await startSession(
      { db: database.db, clock, accessTokens, sessions: sessionCheck },
      someone.userId,
    );
    googleAccount();
    const flow = await signInWith('google', 'signup');
    const refused = await redeem(flow, { accessToken: signedIn.accessToken });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'SIGNED_IN_AS_ANOTHER_USER',
      message: 'You are already logged in with another account. Log out first, then continue with Google.',
    });
    expect(setCookieOf(refused, 'digest_refresh')).toBeUndefined();

    const again = await signInWith('google', 'signin');
    const mine = await redeem(again);
    expect(mine.statusCode).toBe(200);
    const sameUser = await redeem(await signInWith('google', 'signin'), {
      accessToken: mine.json().token.accessToken,
    });
    expect(sameUser.statusCode).toBe(200);
    expect(sameUser.json().user.userId).toBe(mine.json().user.userId);
  });

  it('refuses a request that did not come from the app (no app header, or a foreign Origin)', async () => {
    googleAccount();
    const flow = await signInWith('google', 'signup');
    const cookie = `${BINDING_COOKIE}=${flow.binding}`;
    const payload = { ticket: flow.landing.searchParams.get('ticket') };
    const url = '/api/auth/social/ticket';
    const withoutHeader = await app.inject({ method: 'POST', url, headers: { cookie }, payload });
    expect(withoutHeader.statusCode).toBe(403);
    expect(withoutHeader.json().code).toBe('FOREIGN_REQUEST');
    const foreign = await app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'x-digest-session': '1', origin: 'https://evil.example' },
      payload,
    });
    expect(foreign.statusCode).toBe(403);
    // Neither spent the ticket.
    expect((await redeem(flow)).statusCode).toBe(200);
  });

  it('refuses an unknown ticket, an expired one and a missing one', async () => {
    expect((await redeemTicket(randomBytes(32).toString('base64url'))).json().code).toBe('INVALID_TICKET');

    googleAccount();
    const flow = await signInWith('google', 'signup');
    const ticket = flow.landing.searchParams.get('ticket') ?? '';
    const [row] = await database.db
      .select()
      .from(socialTickets)
      .where(eq(socialTickets.ticketHash, hashToken(ticket)));
    expect((row?.expiresAt.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(2 * 60_000);
    clockOffsetMs = 2 * 60_000 + 1000;
    expect((await redeem(flow)).json().code).toBe('INVALID_TICKET');

    const missing = await app.inject({
      method: 'POST',
      url: '/api/auth/social/ticket',
      headers: { 'x-digest-session': '1' },
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_ERROR');
  });

  it('is rate limited per address, and so are the browser steps (which redirect instead)', async () => {
    const limited = await buildApp(configuredProviders());
    try {
      const { max } = SOCIAL_RATE_LIMITS.ticketPerIp;
      let last: LightMyRequestResponse | undefined;
      for (let i = 0; i <= max; i++) {
        last = await limited.inject({
          method: 'POST',
          url: '/api/auth/social/ticket',
          payload: { ticket: 'x' },
        });
      }
      expect(last?.statusCode).toBe(429);
      expect(last?.headers['retry-after']).toBeDefined();
      expect(last?.json().code).toBe('RATE_LIMITED');

      for (let i = 0; i <= SOCIAL_RATE_LIMITS.startPerIp.max; i++) {
        last = await limited.inject('/api/auth/signin/facebook');
      }
      expect(last?.statusCode).toBe(302);
      expect(locationOf(last as LightMyRequestResponse).searchParams.get('error')).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the social sign-in routes', async () => {
    const response = await app.inject('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/auth/providers',
        '/api/auth/social/ticket',
        '/api/auth/signin/google',
        '/api/auth/signup/facebook/callback',
      ]),
    );
  });
});

describe('logging', () => {
  it('never writes a code, state, ticket, token or client secret', () => {
    const log = logLines.join('\n');
    expect(log).toMatch(/\/api\/auth\/signup\/google\/callback\?code=\[redacted\]&state=\[redacted\]/);
    expect(log).toContain('social sign-in refused');
    for (const secret of secretsSeen) {
      if (secret) expect(log).not.toContain(secret);
    }
  });
});
