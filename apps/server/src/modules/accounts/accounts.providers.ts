import type { AccountProvider } from '@digest/contracts';
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import {
  type AuthorizationRequest,
  authorizationUrlOf,
  type CodeExchange,
  cachedDiscovery,
  getProtectedJson,
  type HttpOptions,
  httpOptions,
  isHttp,
  PROVIDER_TIMEOUT_MS,
  ProviderResponseError,
  parseOrThrow,
  pkceAuthorizationParameters,
  rawClientSecretBasic,
  readJson,
  requestCodeGrant,
  staticMetadata,
} from '#server/modules/auth/oauth-client';
import type { OAuthConfig } from '#server/modules/auth/oauth-config';
import type { Logger } from '#server/platform/logger';
import { X_ACCOUNT_SCOPES } from '#server/sources/twitter/twitter.refusals';

/** Google's revocation endpoint, for a discovery document that does not name one. */
const GOOGLE_REVOCATION_URL = 'https://oauth2.googleapis.com/revoke';
const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';

/** Who the connected account is, as the provider says. */
export interface AccountIdentity {
  providerAccountId: string;
  email: string | null;
  username: string | null;
  profilePicture: string | null;
}

export interface ProviderTokens {
  accessToken: string;
  /** Absent when the provider sent none (Google on a refresh keeps the old one). */
  refreshToken: string | undefined;
  /** Absent when the token does not expire (Stripe). */
  expiresInSeconds: number | undefined;
  scopes: string | undefined;
}

export interface StoredGrant {
  accessToken: string;
  refreshToken: string | undefined;
  providerAccountId: string;
}

/** The provider refused the grant (revoked, expired, scope removed): the person must connect again. */
export class GrantRefusedError extends Error {
  override name = 'GrantRefusedError';
}

/** The person did not give what the source needs (Google: the calendar scope unticked). */
export class MissingScopeError extends Error {
  override name = 'MissingScopeError';
}

/** One provider as the connect flow and the token store see it. Other errors are oauth4webapi's or plain ones. */
export interface AccountProviderClient {
  readonly provider: AccountProvider;
  readonly configured: boolean;
  /** OpenID Connect binds the ID token to the request with a nonce. */
  readonly usesNonce: boolean;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  exchange(exchange: CodeExchange): Promise<{ identity: AccountIdentity; tokens: ProviderTokens }>;
  /** Throws GrantRefusedError when the provider refuses the refresh token. */
  refresh(refreshToken: string): Promise<ProviderTokens>;
  /** Ends the grant at the provider. */
  revoke(grant: StoredGrant): Promise<void>;
}

export type AccountProviderClients = Record<AccountProvider, AccountProviderClient>;

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

function notConfigured(provider: AccountProvider): never {
  throw new Error(`${provider} has no credentials on this server`);
}

/** An OAuth error answer to a token request (invalid_grant, X's invalid_request…) means the grant is gone. */
function refusalOf(error: unknown): unknown {
  if (error instanceof oauth.ResponseBodyError && error.status >= 400 && error.status < 500) {
    // invalid_client is our configuration, not the person's grant.
    if (error.error !== 'invalid_client' && error.error !== 'unauthorized_client') {
      return new GrantRefusedError(`the provider refused the grant (${error.error})`, { cause: error });
    }
  }
  return error;
}

function tokensOf(response: oauth.TokenEndpointResponse): ProviderTokens {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresInSeconds: response.expires_in,
    scopes: response.scope,
  };
}

interface OAuthClientParts {
  provider: AccountProvider;
  credentials: { clientId: string; clientSecret: string } | undefined;
  insecure: boolean;
  metadata(http: () => HttpOptions): Promise<oauth.AuthorizationServer>;
  clientAuthentication(secret: string): oauth.ClientAuth;
}

/** The parts Google and X share: token refresh and revocation through oauth4webapi. */
function oauthGrantOperations(parts: OAuthClientParts) {
  const http = httpOptions(parts.insecure);
  const context = async () => {
    const credentials = parts.credentials ?? notConfigured(parts.provider);
    const as = await parts.metadata(http);
    const client: oauth.Client = { client_id: credentials.clientId };
    return { as, client, auth: parts.clientAuthentication(credentials.clientSecret) };
  };
  return {
    http,
    context,
    async refresh(refreshToken: string) {
      const { as, client, auth } = await context();
      try {
        const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, http());
        return tokensOf(await oauth.processRefreshTokenResponse(as, client, response));
      } catch (error) {
        throw refusalOf(error);
      }
    },
    async revoke(grant: StoredGrant) {
      const { as, client, auth } = await context();
      // Revoking the refresh token ends the whole grant; without one, the access token is what there is to end.
      const token = grant.refreshToken ?? grant.accessToken;
      const response = await oauth.revocationRequest(as, client, auth, token, http());
      await oauth.processRevocationResponse(response);
    },
  };
}

/** Google: OpenID Connect with discovery; the account from the ID token, the calendar read scope, offline. */
function googleClient(config: OAuthConfig['google']): AccountProviderClient {
  const parts: OAuthClientParts = {
    provider: 'GOOGLE',
    credentials: config.credentials,
    insecure: isHttp(config.issuer),
    metadata: cachedDiscovery(config.issuer, (discovered) => ({
      ...discovered,
      revocation_endpoint: discovered.revocation_endpoint ?? GOOGLE_REVOCATION_URL,
    })),
    clientAuthentication: (secret) => oauth.ClientSecretPost(secret),
  };
  const operations = oauthGrantOperations(parts);
  return {
    provider: 'GOOGLE',
    configured: config.credentials !== undefined,
    usesNonce: true,
    async authorizationUrl(request) {
      const { as, client } = await operations.context();
      return authorizationUrlOf(as.authorization_endpoint ?? '', {
        ...pkceAuthorizationParameters(
          client.client_id,
          `openid email profile ${GOOGLE_CALENDAR_SCOPE}`,
          request,
        ),
        // A refresh token, and a fresh one on every connect (Google sends one only on consent).
        access_type: 'offline',
        prompt: 'consent',
        ...(request.nonce ? { nonce: request.nonce } : {}),
      });
    },
    async exchange(exchange) {
      const context = await operations.context();
      const { as, client } = context;
      const response = await requestCodeGrant(context, exchange, operations.http);
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
        expectedNonce: exchange.nonce ?? oauth.expectNoNonce,
        requireIdToken: true,
      });
      await oauth.validateApplicationLevelSignature(as, response, operations.http());
      const claims = oauth.getValidatedIdTokenClaims(tokens);
      if (!claims) throw new ProviderResponseError('no ID token');
      // Google lets the person untick the calendar on its consent screen.
      if (tokens.scope !== undefined && !tokens.scope.split(' ').includes(GOOGLE_CALENDAR_SCOPE)) {
        throw new MissingScopeError('the calendar scope was not granted');
      }
      let info: Record<string, unknown> = { ...claims };
      if (optionalString(claims.email) === null && as.userinfo_endpoint) {
        const userInfo = await oauth.userInfoRequest(as, client, tokens.access_token, operations.http());
        info = { ...info, ...(await oauth.processUserInfoResponse(as, client, claims.sub, userInfo)) };
      }
      return {
        identity: {
          providerAccountId: claims.sub,
          email: optionalString(info.email),
          username: null,
          profilePicture: optionalString(info.picture),
        },
        tokens: tokensOf(tokens),
      };
    },
    refresh: operations.refresh,
    revoke: operations.revoke,
  };
}

// X API v2 `GET /2/users/me?user.fields=profile_image_url`.
const twitterUserSchema = z.object({
  data: z.object({
    id: z.string().min(1),
    username: z.string().optional(),
    profile_image_url: z.string().optional(),
  }),
});

/** X/Twitter: OAuth 2.0 with PKCE (confidential client, HTTP Basic), refresh tokens rotate. */
function twitterClient(config: OAuthConfig['twitter']): AccountProviderClient {
  const as: oauth.AuthorizationServer = {
    ...staticMetadata(config),
    // X revokes at `/2/oauth2/revoke`, beside its token endpoint.
    revocation_endpoint: config.tokenUrl.replace(/\/token$/, '/revoke'),
  };
  const operations = oauthGrantOperations({
    provider: 'TWITTER',
    credentials: config.credentials,
    insecure: isHttp(config.authorizationUrl, config.tokenUrl, config.userinfoUrl),
    metadata: async () => as,
    clientAuthentication: rawClientSecretBasic,
  });
  return {
    provider: 'TWITTER',
    configured: config.credentials !== undefined,
    usesNonce: false,
    async authorizationUrl(request) {
      const { client } = await operations.context();
      return authorizationUrlOf(
        config.authorizationUrl,
        pkceAuthorizationParameters(client.client_id, X_ACCOUNT_SCOPES.join(' '), request),
      );
    },
    async exchange(exchange) {
      const { client, auth } = await operations.context();
      const response = await requestCodeGrant({ as, client, auth }, exchange, operations.http);
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
      const url = new URL(config.userinfoUrl);
      url.searchParams.set('user.fields', 'profile_image_url');
      const me = await getProtectedJson(tokens.access_token, url, operations.http, 'X users/me');
      const { data } = parseOrThrow(twitterUserSchema, me, 'X users/me');
      return {
        identity: {
          providerAccountId: data.id,
          email: null,
          username: optionalString(data.username),
          profilePicture: optionalString(data.profile_image_url),
        },
        tokens: tokensOf(tokens),
      };
    },
    refresh: operations.refresh,
    revoke: operations.revoke,
  };
}

// Stripe Connect `POST /oauth/token`.
const stripeTokenSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  stripe_user_id: z.string().min(1),
});
const stripeErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
// Stripe API `GET /v1/account` (as the connected account): its public name and e-mail.
const stripeAccountSchema = z.object({
  email: z.string().nullish(),
  business_profile: z.object({ name: z.string().nullish() }).nullish(),
  settings: z.object({ dashboard: z.object({ display_name: z.string().nullish() }).nullish() }).nullish(),
});

/** Stripe Connect (Standard) OAuth: no PKCE, tokens that do not expire, deauthorize to disconnect. */
function stripeClient(
  config: OAuthConfig['stripe'],
  stripeApiUrl: string,
  logger: Logger,
): AccountProviderClient {
  const credentials = () => config.credentials ?? notConfigured('STRIPE');
  const signal = () => AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
  const basic = (secretKey: string) => `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`;

  /** The business name and e-mail; an account is still connected when Stripe cannot tell them now. */
  async function describe(accountId: string, secretKey: string): Promise<AccountIdentity> {
    const identity = { providerAccountId: accountId, email: null, username: accountId, profilePicture: null };
    try {
      const response = await fetch(`${stripeApiUrl}/v1/account`, {
        headers: {
          authorization: `Bearer ${secretKey}`,
          'stripe-account': accountId,
          accept: 'application/json',
        },
        signal: signal(),
      });
      const account = parseOrThrow(
        stripeAccountSchema,
        await readJson(response, 'Stripe account'),
        'Stripe account',
      );
      return {
        ...identity,
        email: optionalString(account.email),
        username:
          optionalString(account.business_profile?.name) ??
          optionalString(account.settings?.dashboard?.display_name) ??
          accountId,
      };
    } catch (error) {
      logger.warn(
        { err: { type: (error as Error).name, message: (error as Error).message } },
        'Stripe account lookup failed',
      );
      return identity;
    }
  }

  return {
    provider: 'STRIPE',
    configured: config.credentials !== undefined,
    usesNonce: false,
    async authorizationUrl({ redirectUri, state }) {
      return authorizationUrlOf(`${config.connectUrl}/oauth/authorize`, {
        response_type: 'code',
        client_id: credentials().clientId,
        scope: 'read_only',
        redirect_uri: redirectUri,
        state,
      });
    },
    async exchange({ callbackParameters }) {
      const { clientSecret } = credentials();
      const code = callbackParameters.get('code');
      if (!code) throw new ProviderResponseError('Stripe sent no code');
      const response = await fetch(`${config.connectUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, client_secret: clientSecret }),
        signal: signal(),
      });
      if (response.status >= 400 && response.status < 500) {
        const body = stripeErrorSchema.safeParse(await response.json().catch(() => undefined));
        throw new GrantRefusedError(
          `Stripe refused the code (${body.success ? body.data.error : response.status})`,
        );
      }
      const tokens = parseOrThrow(
        stripeTokenSchema,
        await readJson(response, 'Stripe token'),
        'Stripe token',
      );
      return {
        identity: await describe(tokens.stripe_user_id, clientSecret),
        tokens: {
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          expiresInSeconds: undefined,
          scopes: tokens.scope,
        },
      };
    },
    async refresh() {
      // Stripe Connect access tokens do not expire, so a stored one is never refreshed.
      throw new GrantRefusedError('Stripe tokens are not refreshed');
    },
    async revoke({ providerAccountId }) {
      const { clientId, clientSecret } = credentials();
      const response = await fetch(`${config.connectUrl}/oauth/deauthorize`, {
        method: 'POST',
        headers: {
          authorization: basic(clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ client_id: clientId, stripe_user_id: providerAccountId }),
        signal: signal(),
      });
      await readJson(response, 'Stripe deauthorize');
    },
  };
}

/** The three providers accounts can be connected with; one without credentials reports `configured: false`. */
export function createAccountProviders(
  config: OAuthConfig,
  options: { stripeApiUrl: string; logger: Logger },
): AccountProviderClients {
  return {
    GOOGLE: googleClient(config.google),
    TWITTER: twitterClient(config.twitter),
    STRIPE: stripeClient(config.stripe, options.stripeApiUrl, options.logger),
  };
}
