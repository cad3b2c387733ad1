/**
 * Fake OAuth authorisation servers for connected accounts (and social sign-in in development):
 *
 * - `/google-oauth`: Google-like OpenID Connect (discovery, authorize, token with the authorization_code and
 *   refresh_token grants, UserInfo, revoke, JWKS; RS256 ID tokens signed with a key made at start).
 * - `/twitter-oauth`: X/Twitter OAuth 2.0 with PKCE (authorize, token with refresh-token rotation, revoke)
 *   and `/2/users/me`.
 * - `/stripe-connect`: Stripe Connect OAuth (authorize, token, deauthorize).
 *
 * Every authorize endpoint consents at once (no login page) and sends the browser back with a code, as the
 * first account of the fixtures (`fakeOAuth.useAccount` picks another). What the real servers check and we
 * rely on is checked here too: client id and secret, redirect URI, PKCE verifier (S256), single-use codes.
 *
 * Access tokens are self-describing, so any other fake (the X API fake, the Google Calendar fake…) can check a
 * token this server issued without sharing state with it (`fake-bearer.ts` reads them):
 *
 *     fake-<provider>-access.<accountId>.<expiresAt>[.<scopes>]
 *
 * `<provider>` is `google`, `twitter` or `stripe`; `<accountId>` is the account's id at the provider
 * (Google `sub`, X user id, Stripe `acct_…`; never contains a dot); `<expiresAt>` is Unix seconds (Stripe's
 * tokens do not expire: theirs says 2100); `<scopes>` (X only) is the granted scope, base64url, so the X API fake
 * can check each endpoint's scopes as X does. Refresh tokens are opaque. `readFakeAccessToken(provider, token)`
 * parses an access token and says whether it is still good, revocations here included.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { FakeProvider, FakeRequest, FakeResponse } from '../fake-provider';

export type FakeOAuthProvider = 'google' | 'twitter' | 'stripe';

/** The fake credentials that turn the providers on (and that the fakes accept). */
export const FAKE_OAUTH_CREDENTIALS = {
  GOOGLE_CLIENT_ID: 'fake-google-client.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'GOCSPX-fake-google-secret',
  TWITTER_CLIENT_ID: 'ZmFrZS10d2l0dGVyLWNsaWVudA',
  TWITTER_CLIENT_SECRET: 'fake-twitter-secret_with-dashes',
  STRIPE_CLIENT_ID: 'ca_FakeStripeConnectClient0001',
  STRIPE_SECRET_KEY: 'sk_test_fakePlatformSecretKey0001',
} as const;

interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  given_name: string;
  family_name: string;
  picture: string;
  locale: string;
}

interface TwitterAccount {
  id: string;
  name: string;
  username: string;
  profile_image_url: string;
  confirmed_email: string;
}

interface StripeAccount {
  id: string;
  email: string;
  country: string;
  /** The currency its payouts and reports are in (three-letter ISO code, lowercase, as Stripe writes it). */
  default_currency: string;
  business_profile: { name: string; url: string | null };
  settings: { dashboard: { display_name: string } };
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/oauth/accounts.json', import.meta.url), 'utf8'),
) as { google: GoogleAccount[]; twitter: TwitterAccount[]; stripe: StripeAccount[] };

const accountIdOf = {
  google: (account: GoogleAccount) => account.sub,
  twitter: (account: TwitterAccount) => account.id,
  stripe: (account: StripeAccount) => account.id,
};

/** The fixture accounts, for tests that check what was stored. */
export const FAKE_OAUTH_ACCOUNTS = fixtures;

const ACCESS_TTL_SECONDS = { google: 3599, twitter: 7200 } as const;
/** 2100-01-01: Stripe Connect access tokens do not expire. */
const STRIPE_TOKEN_EXPIRY = 4_102_444_800;
const CODE_TTL_MS = 10 * 60 * 1000;

interface Grant {
  provider: FakeOAuthProvider;
  clientId: string;
  accountId: string;
  scope: string;
  redirectUri: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
  nonce: string | undefined;
  /** Google issues a refresh token only for `access_type=offline`; X only with `offline.access`. */
  offline: boolean;
  expiresAt: number;
}

/** Everything the fakes remember: codes not yet used, live refresh tokens, revoked tokens, test switches. */
const state = {
  codes: new Map<string, Grant>(),
  refreshTokens: new Map<string, Grant>(),
  revoked: new Set<string>(),
  revocations: [] as { provider: FakeOAuthProvider; token: string }[],
  failNextGrant: new Set<FakeOAuthProvider>(),
  denyNext: new Set<FakeOAuthProvider>(),
  account: new Map<FakeOAuthProvider, string>(),
  grantedScope: new Map<FakeOAuthProvider, string>(),
};

/** Test switches of the fake authorisation servers (same process only). */
export const fakeOAuth = {
  /** The next token request (code or refresh) to `provider` is refused the way the real one refuses it. */
  failNextGrant(provider: FakeOAuthProvider) {
    state.failNextGrant.add(provider);
  },
  /** The next authorize request to `provider` ends as if the person pressed Cancel. */
  denyNext(provider: FakeOAuthProvider) {
    state.denyNext.add(provider);
  },
  /** Authorize requests to `provider` sign in as this fixture account from now on. */
  useAccount(provider: FakeOAuthProvider, accountId: string) {
    state.account.set(provider, accountId);
  },
  /**
   * Authorize requests to `provider` grant this scope, whatever was asked for: an account connected by an
   * earlier version of the app, which asked for less. undefined: what is asked for again.
   */
  grantScope(provider: FakeOAuthProvider, scope: string | undefined) {
    if (scope === undefined) state.grantedScope.delete(provider);
    else state.grantedScope.set(provider, scope);
  },
  /** Tokens revoked (or Stripe accounts deauthorized) so far. */
  revocations(provider: FakeOAuthProvider) {
    return state.revocations.filter((entry) => entry.provider === provider).map((entry) => entry.token);
  },
  reset() {
    state.codes.clear();
    state.refreshTokens.clear();
    state.revoked.clear();
    state.revocations.length = 0;
    state.failNextGrant.clear();
    state.denyNext.clear();
    state.account.clear();
    state.grantedScope.clear();
  },
};

/** The account an access token of this fake belongs to, or undefined when it is malformed, expired or revoked. */
export function readFakeAccessToken(
  provider: FakeOAuthProvider,
  token: string,
  now = Date.now(),
): { accountId: string; scopes: string[] | undefined } | undefined {
  const match = new RegExp(`^fake-${provider}-access\\.([^.]+)\\.(\\d+)(?:\\.([\\w-]+))?$`).exec(token);
  if (!match?.[1] || !match[2] || state.revoked.has(token)) return undefined;
  // Stripe ends every token of an account at once (deauthorize).
  if (provider === 'stripe' && state.revoked.has(match[1])) return undefined;
  if (Number(match[2]) * 1000 <= now) return undefined;
  const scopes = match[3] === undefined ? undefined : fakeScopesOf(match[3]);
  return { accountId: match[1], scopes };
}

/** The `<scopes>` part of an X access token of this fake. */
export const fakeScopePart = (scope: string) => Buffer.from(scope).toString('base64url');
const fakeScopesOf = (part: string) =>
  Buffer.from(part, 'base64url').toString('utf8').split(' ').filter(Boolean);

const random = () => randomBytes(18).toString('base64url');

function issueAccessToken(provider: 'google' | 'twitter', accountId: string, scope?: string) {
  const ttl = ACCESS_TTL_SECONDS[provider];
  const scopes = scope === undefined ? '' : `.${fakeScopePart(scope)}`;
  const token = `fake-${provider}-access.${accountId}.${Math.floor(Date.now() / 1000) + ttl}${scopes}`;
  // Two tokens issued in the same second are the same string: a new one is good even if an equal one was revoked.
  state.revoked.delete(token);
  return { token, expiresIn: ttl };
}

function issueRefreshToken(grant: Grant) {
  const token = `fake-${grant.provider}-refresh.${grant.accountId}.${random()}`;
  state.refreshTokens.set(token, grant);
  return token;
}

function revoke(provider: FakeOAuthProvider, token: string) {
  state.revoked.add(token);
  state.refreshTokens.delete(token);
  state.revocations.push({ provider, token });
}

function form(request: FakeRequest): URLSearchParams {
  const type = String(request.headers['content-type'] ?? '');
  return type.startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(request.body)
    : new URLSearchParams();
}

function sameText(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Client credentials from HTTP Basic (raw or form-encoded, as RFC 6749 allows) or the form body. */
function clientOf(request: FakeRequest, body: URLSearchParams) {
  const header = String(request.headers.authorization ?? '');
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const decode = (value: string) => {
      try {
        return decodeURIComponent(value.replaceAll('+', ' '));
      } catch {
        return value;
      }
    };
    return {
      id: decode(decoded.slice(0, separator)),
      secret: decode(decoded.slice(separator + 1)),
      basic: true,
    };
  }
  return { id: body.get('client_id') ?? '', secret: body.get('client_secret') ?? '', basic: false };
}

function pkceMatches(grant: Grant, verifier: string | null) {
  if (!grant.codeChallenge) return true;
  if (!verifier) return false;
  const computed =
    grant.codeChallengeMethod === 'S256'
      ? createHash('sha256').update(verifier).digest('base64url')
      : verifier;
  return sameText(computed, grant.codeChallenge);
}

const redirectTo = (location: string): FakeResponse => ({ status: 302, headers: { location } });

function withQuery(base: string, query: Record<string, string>) {
  const url = new URL(base);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

function currentAccount<T>(provider: FakeOAuthProvider, accounts: T[], idOf: (account: T) => string): T {
  const chosen = state.account.get(provider);
  const account = accounts.find((candidate) => idOf(candidate) === chosen) ?? accounts[0];
  if (!account) throw new Error(`no ${provider} fixture account`);
  return account;
}

/** Takes a code out for good and checks it against the token request; undefined when it does not hold. */
function redeemCode(provider: FakeOAuthProvider, body: URLSearchParams, clientId: string) {
  const code = body.get('code') ?? '';
  const grant = state.codes.get(code);
  state.codes.delete(code);
  if (!grant || grant.provider !== provider || grant.clientId !== clientId || grant.expiresAt <= Date.now()) {
    return undefined;
  }
  if (grant.redirectUri !== undefined && body.get('redirect_uri') !== grant.redirectUri) return undefined;
  if (!pkceMatches(grant, body.get('code_verifier'))) return undefined;
  return grant;
}

function takeFailure(provider: FakeOAuthProvider) {
  return state.failNextGrant.delete(provider);
}

// ---------------------------------------------------------------- Google (OpenID Connect)

const GOOGLE_PREFIX = '/google-oauth';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let signingKey: Promise<{ privateKey: PrivateKey; jwk: JWK }> | undefined;
function googleKey() {
  signingKey ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey, publicKey }) => ({
    privateKey,
    jwk: { ...(await exportJWK(publicKey)), kid: 'fake-google-key-1', alg: 'RS256', use: 'sig' },
  }));
  return signingKey;
}

const googleError = (status: number, error: string, description: string): FakeResponse => ({
  status,
  body: { error, error_description: description },
});

async function googleIdToken(issuer: string, grant: Grant, account: GoogleAccount) {
  const { privateKey } = await googleKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    azp: grant.clientId,
    email: account.email,
    email_verified: account.email_verified,
    name: account.name,
    picture: account.picture,
    given_name: account.given_name,
    family_name: account.family_name,
    ...(grant.nonce ? { nonce: grant.nonce } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'fake-google-key-1', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(grant.clientId)
    .setSubject(account.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
}

const googleAccount = (accountId: string) => fixtures.google.find((account) => account.sub === accountId);

function bearerOf(request: FakeRequest) {
  const match = /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''));
  return match?.[1];
}

export const googleOAuthProvider: FakeProvider = {
  prefix: GOOGLE_PREFIX,
  env: { GOOGLE_ISSUER: '' },
  credentials: {
    GOOGLE_CLIENT_ID: FAKE_OAUTH_CREDENTIALS.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CREDENTIALS.GOOGLE_CLIENT_SECRET,
  },
  async handle(request, { baseUrl }) {
    const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = FAKE_OAUTH_CREDENTIALS;
    switch (`${request.method} ${request.path}`) {
      case 'GET /.well-known/openid-configuration':
        return {
          body: {
            issuer: baseUrl,
            authorization_endpoint: `${baseUrl}/o/oauth2/v2/auth`,
            device_authorization_endpoint: `${baseUrl}/device/code`,
            token_endpoint: `${baseUrl}/token`,
            userinfo_endpoint: `${baseUrl}/v1/userinfo`,
            revocation_endpoint: `${baseUrl}/revoke`,
            jwks_uri: `${baseUrl}/oauth2/v3/certs`,
            response_types_supported: ['code', 'token', 'id_token', 'code token', 'code id_token', 'none'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: ['openid', 'email', 'profile'],
            token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
            claims_supported: [
              'aud',
              'email',
              'email_verified',
              'exp',
              'family_name',
              'given_name',
              'iat',
              'iss',
              'name',
              'picture',
              'sub',
            ],
            code_challenge_methods_supported: ['plain', 'S256'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
          },
        };
      case 'GET /oauth2/v3/certs':
        return { body: { keys: [(await googleKey()).jwk] } };
      case 'GET /o/oauth2/v2/auth': {
        const query = request.query;
        const redirectUri = query.get('redirect_uri');
        // Google shows its own error page (no redirect) when it cannot trust the client or the redirect URI.
        if (query.get('client_id') !== GOOGLE_CLIENT_ID) {
          return { status: 401, body: 'Error 401: invalid_client. The OAuth client was not found.' };
        }
        if (
          !redirectUri ||
          query.get('response_type') !== 'code' ||
          !query.get('scope')?.split(' ').includes('openid')
        ) {
          return {
            status: 400,
            body: 'Error 400: invalid_request. Required parameter is missing or invalid.',
          };
        }
        const back = { state: query.get('state') ?? '' };
        if (state.denyNext.delete('google'))
          return redirectTo(withQuery(redirectUri, { ...back, error: 'access_denied' }));
        const account = currentAccount('google', fixtures.google, accountIdOf.google);
        const code = `4/0A${random()}`;
        state.codes.set(code, {
          provider: 'google',
          clientId: GOOGLE_CLIENT_ID,
          accountId: account.sub,
          scope: query.get('scope') ?? '',
          redirectUri,
          codeChallenge: query.get('code_challenge') ?? undefined,
          codeChallengeMethod: query.get('code_challenge_method') ?? 'plain',
          nonce: query.get('nonce') ?? undefined,
          offline: query.get('access_type') === 'offline',
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        return redirectTo(
          withQuery(redirectUri, {
            ...back,
            code,
            scope: query.get('scope') ?? '',
            authuser: '0',
            prompt: 'consent',
          }),
        );
      }
      case 'POST /token': {
        const body = form(request);
        const client = clientOf(request, body);
        if (client.id !== GOOGLE_CLIENT_ID || !sameText(client.secret, GOOGLE_CLIENT_SECRET)) {
          return googleError(401, 'invalid_client', 'Unauthorized');
        }
        if (takeFailure('google'))
          return googleError(400, 'invalid_grant', 'Token has been expired or revoked.');
        const grantType = body.get('grant_type');
        if (grantType === 'authorization_code') {
          const grant = redeemCode('google', body, client.id);
          const account = grant && googleAccount(grant.accountId);
          if (!grant || !account) return googleError(400, 'invalid_grant', 'Bad Request');
          const access = issueAccessToken('google', grant.accountId);
          return {
            body: {
              access_token: access.token,
              expires_in: access.expiresIn,
              ...(grant.offline ? { refresh_token: issueRefreshToken(grant) } : {}),
              scope: grant.scope,
              token_type: 'Bearer',
              id_token: await googleIdToken(baseUrl, grant, account),
            },
          };
        }
        if (grantType === 'refresh_token') {
          const grant = state.refreshTokens.get(body.get('refresh_token') ?? '');
          if (!grant || grant.clientId !== client.id) {
            return googleError(400, 'invalid_grant', 'Token has been expired or revoked.');
          }
          // Google keeps the refresh token: it sends none back.
          const access = issueAccessToken('google', grant.accountId);
          return {
            body: {
              access_token: access.token,
              expires_in: access.expiresIn,
              scope: grant.scope,
              token_type: 'Bearer',
            },
          };
        }
        return googleError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
      }
      case 'GET /v1/userinfo': {
        const owner = readFakeAccessToken('google', bearerOf(request) ?? '');
        const account = owner && googleAccount(owner.accountId);
        if (!account) {
          return {
            status: 401,
            headers: {
              'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
            },
            body: { error: 'invalid_request', error_description: 'Invalid Credentials' },
          };
        }
        return { body: account };
      }
      case 'POST /revoke': {
        const token = form(request).get('token') ?? request.query.get('token') ?? '';
        const known = state.refreshTokens.has(token) || readFakeAccessToken('google', token) !== undefined;
        if (!known) return googleError(400, 'invalid_token', 'Token expired or revoked');
        revoke('google', token);
        return { body: {} };
      }
      default:
        return undefined;
    }
  },
};

// ---------------------------------------------------------------- X/Twitter (OAuth 2.0 with PKCE)

const TWITTER_PREFIX = '/twitter-oauth';

const twitterError = (description: string, error = 'invalid_request'): FakeResponse => ({
  status: 400,
  body: { error, error_description: description },
});

const twitterUnauthorized: FakeResponse = {
  status: 401,
  body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
};

/** X wants a confidential client to authenticate with HTTP Basic. */
function twitterClientOk(request: FakeRequest, body: URLSearchParams) {
  const client = clientOf(request, body);
  return (
    client.basic &&
    client.id === FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_ID &&
    sameText(client.secret, FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_SECRET)
  );
}

function twitterTokenResponse(grant: Grant): FakeResponse {
  const access = issueAccessToken('twitter', grant.accountId, grant.scope);
  return {
    body: {
      token_type: 'bearer',
      expires_in: access.expiresIn,
      access_token: access.token,
      scope: grant.scope,
      ...(grant.offline ? { refresh_token: issueRefreshToken(grant) } : {}),
    },
  };
}

export const twitterOAuthProvider: FakeProvider = {
  prefix: TWITTER_PREFIX,
  env: {
    TWITTER_AUTHORIZATION_URL: '/i/oauth2/authorize',
    TWITTER_TOKEN_URL: '/2/oauth2/token',
    TWITTER_USERINFO_URL: '/2/users/me',
  },
  credentials: {
    TWITTER_CLIENT_ID: FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_ID,
    TWITTER_CLIENT_SECRET: FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_SECRET,
  },
  handle(request) {
    switch (`${request.method} ${request.path}`) {
      case 'GET /i/oauth2/authorize': {
        const query = request.query;
        const redirectUri = query.get('redirect_uri');
        // X requires PKCE and a state, and shows its own error page without them.
        if (
          query.get('client_id') !== FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_ID ||
          !redirectUri ||
          query.get('response_type') !== 'code' ||
          !query.get('scope') ||
          !query.get('state') ||
          !query.get('code_challenge')
        ) {
          return { status: 400, body: 'Something went wrong. You weren’t able to give access to the App.' };
        }
        const back = { state: query.get('state') ?? '' };
        if (state.denyNext.delete('twitter'))
          return redirectTo(withQuery(redirectUri, { ...back, error: 'access_denied' }));
        const account = currentAccount('twitter', fixtures.twitter, accountIdOf.twitter);
        const scope = state.grantedScope.get('twitter') ?? query.get('scope') ?? '';
        const code = random();
        state.codes.set(code, {
          provider: 'twitter',
          clientId: FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_ID,
          accountId: account.id,
          scope,
          redirectUri,
          codeChallenge: query.get('code_challenge') ?? undefined,
          codeChallengeMethod: query.get('code_challenge_method') ?? 'plain',
          nonce: undefined,
          offline: scope.split(' ').includes('offline.access'),
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        return redirectTo(withQuery(redirectUri, { ...back, code }));
      }
      case 'POST /2/oauth2/token': {
        const body = form(request);
        if (!twitterClientOk(request, body)) {
          return {
            status: 401,
            body: { error: 'unauthorized_client', error_description: 'Missing valid authorization header' },
          };
        }
        // X answers `invalid_request` (not `invalid_grant`) for a code or refresh token it does not accept.
        if (takeFailure('twitter')) return twitterError('Value passed for the token was invalid.');
        const grantType = body.get('grant_type');
        if (grantType === 'authorization_code') {
          const grant = redeemCode('twitter', body, FAKE_OAUTH_CREDENTIALS.TWITTER_CLIENT_ID);
          if (!grant) return twitterError('Value passed for the authorization code was invalid.');
          return twitterTokenResponse(grant);
        }
        if (grantType === 'refresh_token') {
          const token = body.get('refresh_token') ?? '';
          const grant = state.refreshTokens.get(token);
          if (!grant) return twitterError('Value passed for the token was invalid.');
          // X rotates refresh tokens: the one just used stops working.
          state.refreshTokens.delete(token);
          return twitterTokenResponse(grant);
        }
        return twitterError('Missing required parameter [grant_type].');
      }
      case 'POST /2/oauth2/revoke': {
        const body = form(request);
        if (!twitterClientOk(request, body)) {
          return {
            status: 401,
            body: { error: 'unauthorized_client', error_description: 'Missing valid authorization header' },
          };
        }
        const token = body.get('token') ?? '';
        if (state.refreshTokens.has(token) || readFakeAccessToken('twitter', token)) revoke('twitter', token);
        // X answers the same whether or not it knew the token (RFC 7009).
        return { body: { revoked: true } };
      }
      case 'GET /2/users/me': {
        const owner = readFakeAccessToken('twitter', bearerOf(request) ?? '');
        const account = owner && fixtures.twitter.find((candidate) => candidate.id === owner.accountId);
        if (!account) return twitterUnauthorized;
        const fields = new Set((request.query.get('user.fields') ?? '').split(','));
        return {
          body: {
            data: {
              id: account.id,
              name: account.name,
              username: account.username,
              ...(fields.has('profile_image_url') ? { profile_image_url: account.profile_image_url } : {}),
              ...(fields.has('confirmed_email') ? { confirmed_email: account.confirmed_email } : {}),
            },
          },
        };
      }
      default:
        return undefined;
    }
  },
};

// ---------------------------------------------------------------- Stripe Connect (OAuth)

const STRIPE_PREFIX = '/stripe-connect';

const stripeError = (status: number, error: string, description: string): FakeResponse => ({
  status,
  body: { error, error_description: description },
});

/** The platform's secret key, sent as `client_secret`, HTTP Basic user, or a bearer token (Stripe takes all three). */
function stripeSecretOf(request: FakeRequest, body: URLSearchParams) {
  const bearer = bearerOf(request);
  if (bearer) return bearer;
  const client = clientOf(request, body);
  return client.basic ? client.id : client.secret;
}

export const stripeConnectProvider: FakeProvider = {
  prefix: STRIPE_PREFIX,
  env: { STRIPE_CONNECT_BASE_URL: '' },
  credentials: {
    STRIPE_CLIENT_ID: FAKE_OAUTH_CREDENTIALS.STRIPE_CLIENT_ID,
    STRIPE_SECRET_KEY: FAKE_OAUTH_CREDENTIALS.STRIPE_SECRET_KEY,
  },
  handle(request) {
    const { STRIPE_CLIENT_ID, STRIPE_SECRET_KEY } = FAKE_OAUTH_CREDENTIALS;
    switch (`${request.method} ${request.path}`) {
      case 'GET /oauth/authorize': {
        const query = request.query;
        const redirectUri = query.get('redirect_uri');
        if (
          query.get('client_id') !== STRIPE_CLIENT_ID ||
          !redirectUri ||
          query.get('response_type') !== 'code'
        ) {
          return {
            status: 400,
            body: 'Invalid request: client_id, response_type=code and redirect_uri are required.',
          };
        }
        const scope = query.get('scope') ?? 'read_only';
        const back = { state: query.get('state') ?? '' };
        if (state.denyNext.delete('stripe')) {
          return redirectTo(
            withQuery(redirectUri, {
              ...back,
              error: 'access_denied',
              error_description: 'The user denied your request',
            }),
          );
        }
        const account = currentAccount('stripe', fixtures.stripe, accountIdOf.stripe);
        const code = `ac_${random()}`;
        state.codes.set(code, {
          provider: 'stripe',
          clientId: STRIPE_CLIENT_ID,
          accountId: account.id,
          scope,
          // Stripe does not repeat the redirect URI in the token request.
          redirectUri: undefined,
          codeChallenge: undefined,
          codeChallengeMethod: undefined,
          nonce: undefined,
          offline: true,
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        return redirectTo(withQuery(redirectUri, { ...back, scope, code }));
      }
      case 'POST /oauth/token': {
        const body = form(request);
        if (!sameText(stripeSecretOf(request, body), STRIPE_SECRET_KEY)) {
          return stripeError(401, 'invalid_client', 'No such api key: the client_secret is not valid.');
        }
        if (takeFailure('stripe'))
          return stripeError(400, 'invalid_grant', 'This authorization code has expired or was revoked.');
        if (body.get('grant_type') !== 'authorization_code') {
          return stripeError(400, 'unsupported_grant_type', 'Only authorization_code is accepted here.');
        }
        const code = body.get('code') ?? '';
        const grant = redeemCode('stripe', body, STRIPE_CLIENT_ID);
        if (!grant) return stripeError(400, 'invalid_grant', `Authorization code does not exist: ${code}`);
        state.revoked.delete(grant.accountId);
        return {
          body: {
            access_token: `fake-stripe-access.${grant.accountId}.${STRIPE_TOKEN_EXPIRY}`,
            livemode: false,
            refresh_token: issueRefreshToken(grant),
            token_type: 'bearer',
            stripe_publishable_key: `pk_test_${random()}`,
            stripe_user_id: grant.accountId,
            scope: grant.scope,
          },
        };
      }
      case 'POST /oauth/deauthorize': {
        const body = form(request);
        if (!sameText(stripeSecretOf(request, body), STRIPE_SECRET_KEY)) {
          return stripeError(401, 'invalid_client', 'No such api key: the client_secret is not valid.');
        }
        const accountId = body.get('stripe_user_id') ?? '';
        if (
          body.get('client_id') !== STRIPE_CLIENT_ID ||
          !fixtures.stripe.some((account) => account.id === accountId)
        ) {
          return stripeError(400, 'invalid_client', `No such application: '${body.get('client_id') ?? ''}'`);
        }
        revoke('stripe', accountId);
        return { body: { stripe_user_id: accountId } };
      }
      default:
        return undefined;
    }
  },
};

export const oauthFakeProviders = [googleOAuthProvider, twitterOAuthProvider, stripeConnectProvider];
