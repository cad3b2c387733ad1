import { createHmac } from 'node:crypto';
import { SOCIAL_PROVIDERS, type SocialProvider } from '@digest/contracts';
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import type { OAuthConfig, OAuthCredentials, OAuthEndpoints } from '../../../app/config';

/** Every call to a provider gives up after this long. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** How long Google's discovery document is trusted before it is read again. */
const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000;

/** What the provider says about the person who signed in. */
export interface ProviderProfile {
  /** The provider's stable id of the account (`sub`, X user id, Facebook app-scoped id). */
  subject: string;
  email: string | undefined;
  /** True only when the provider vouches that the person controls `email`. */
  emailVerified: boolean;
  name: string | undefined;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string | undefined;
}

export interface CodeExchange {
  /** The query of the callback, as the provider sent it. */
  callbackParameters: URLSearchParams;
  state: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string | undefined;
}

/** One provider as the sign-in flow sees it. Errors are oauth4webapi's or plain ones; callers map them. */
export interface SocialProviderClient {
  readonly provider: SocialProvider;
  readonly configured: boolean;
  /** OpenID Connect providers bind the ID token to the request with a nonce. */
  readonly usesNonce: boolean;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  exchange(exchange: CodeExchange): Promise<ProviderProfile>;
}

export type SocialProviders = Record<SocialProvider, SocialProviderClient>;

type HttpOptions = { [oauth.allowInsecureRequests]?: boolean; signal: AbortSignal };

interface ProfileContext {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  tokens: oauth.TokenEndpointResponse;
  /** The token endpoint's response, which the ID token's signature check refers to. */
  tokenResponse: Response;
  credentials: OAuthCredentials;
  http: () => HttpOptions;
}

interface ProviderStrategy {
  scope: string;
  usesNonce: boolean;
  /** Extra parameters of the authorization request. */
  authorizationParameters?: Record<string, string>;
  /** Plain http is accepted only for loopback endpoints, which the configuration enforces. */
  insecure: boolean;
  metadata(http: () => HttpOptions): Promise<oauth.AuthorizationServer>;
  clientAuthentication(secret: string): oauth.ClientAuth;
  profile(context: ProfileContext): Promise<ProviderProfile>;
}

/** A provider answered in a shape we cannot use (never carries the provider's body). */
export class ProviderResponseError extends Error {
  override name = 'ProviderResponseError';
}

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function createClient(
  provider: SocialProvider,
  credentials: OAuthCredentials | undefined,
  strategy: ProviderStrategy,
): SocialProviderClient {
  const http = (): HttpOptions => ({
    ...(strategy.insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  });
  const requireCredentials = () => {
    if (!credentials) throw new Error(`${provider} sign-in has no credentials`);
    return credentials;
  };

  return {
    provider,
    configured: credentials !== undefined,
    usesNonce: strategy.usesNonce,

    async authorizationUrl({ redirectUri, state, codeChallenge, nonce }) {
      const { clientId } = requireCredentials();
      const as = await strategy.metadata(http);
      if (!as.authorization_endpoint) throw new ProviderResponseError('no authorization endpoint');
      const url = new URL(as.authorization_endpoint);
      const parameters = {
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: strategy.scope,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        ...(nonce ? { nonce } : {}),
        ...strategy.authorizationParameters,
      };
      for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
      return url;
    },

    async exchange({ callbackParameters, state, redirectUri, codeVerifier, nonce }) {
      const credentials = requireCredentials();
      const as = await strategy.metadata(http);
      const client: oauth.Client = { client_id: credentials.clientId };
      const parameters = oauth.validateAuthResponse(as, client, callbackParameters, state);
      const tokenResponse = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        strategy.clientAuthentication(credentials.clientSecret),
        parameters,
        redirectUri,
        codeVerifier,
        http(),
      );
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse, {
        ...(strategy.usesNonce ? { expectedNonce: nonce ?? oauth.expectNoNonce, requireIdToken: true } : {}),
      });
      return strategy.profile({ as, client, tokens, tokenResponse, credentials, http });
    },
  };
}

/**
 * HTTP Basic client authentication as X documents it (and as `curl -u` sends it): base64 of the raw
 * `id:secret`. oauth4webapi's ClientSecretBasic form-encodes both first (RFC 6749 §2.3.1), turning the `-` and
 * `_` of X secrets into `%2D`/`%5F`, which servers that do not decode them (X among them) refuse.
 */
export const rawClientSecretBasic =
  (clientSecret: string): oauth.ClientAuth =>
  (_as, client, _body, headers) => {
    headers.set(
      'authorization',
      `Basic ${Buffer.from(`${client.client_id}:${clientSecret}`).toString('base64')}`,
    );
  };

export const isHttp = (...urls: string[]) => urls.some((url) => new URL(url).protocol === 'http:');

/** Google: OpenID Connect with discovery; the person comes from the ID token, checked against the JWKS. */
function googleStrategy(issuer: string): ProviderStrategy {
  let cached: { as: oauth.AuthorizationServer; until: number } | undefined;
  return {
    scope: 'openid email profile',
    usesNonce: true,
    insecure: isHttp(issuer),
    async metadata(http) {
      if (cached && cached.until > Date.now()) return cached.as;
      const issuerUrl = new URL(issuer);
      const response = await oauth.discoveryRequest(issuerUrl, { ...http(), algorithm: 'oidc' });
      const as = await oauth.processDiscoveryResponse(issuerUrl, response);
      // One object per discovery: oauth4webapi caches the JWKS per metadata object.
      cached = { as, until: Date.now() + DISCOVERY_TTL_MS };
      return as;
    },
    clientAuthentication: (secret) => oauth.ClientSecretPost(secret),
    async profile({ as, client, tokens, tokenResponse, http }) {
      // Issuer, audience, expiry and nonce were checked with the token response; this checks the signature.
      await oauth.validateApplicationLevelSignature(as, tokenResponse, http());
      const claims = oauth.getValidatedIdTokenClaims(tokens);
      if (!claims) throw new ProviderResponseError('no ID token');
      let info: Record<string, unknown> = { ...claims };
      if (optionalString(claims.email) === undefined && as.userinfo_endpoint) {
        // Some OpenID providers leave the e-mail out of the ID token; their UserInfo has it.
        const response = await oauth.userInfoRequest(as, client, tokens.access_token, http());
        info = { ...info, ...(await oauth.processUserInfoResponse(as, client, claims.sub, response)) };
      }
      return {
        subject: claims.sub,
        email: optionalString(info.email),
        emailVerified: info.email_verified === true || info.email_verified === 'true',
        name: optionalString(info.name),
      };
    },
  };
}

/** Metadata of a provider without discovery; its issuer is only a name here (these send no ID token). */
const staticMetadata = (endpoints: OAuthEndpoints): oauth.AuthorizationServer => ({
  issuer: new URL(endpoints.authorizationUrl).origin,
  authorization_endpoint: endpoints.authorizationUrl,
  token_endpoint: endpoints.tokenUrl,
});

export async function readJson(response: Response, what: string): Promise<unknown> {
  if (!response.ok) throw new ProviderResponseError(`${what} answered HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new ProviderResponseError(`${what} did not answer JSON`);
  }
}

export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ProviderResponseError(`${what} answered an unexpected shape`);
  return parsed.data;
}

// X API v2 `GET /2/users/me`: the e-mail comes only with the `users.email` scope, and only once confirmed.
const twitterUserSchema = z.object({
  data: z.object({
    id: z.string().min(1),
    name: z.string().optional(),
    username: z.string().optional(),
    confirmed_email: z.string().optional(),
  }),
});

/** X/Twitter: OAuth 2.0 with PKCE (confidential client, HTTP Basic); the person from `/2/users/me`. */
function twitterStrategy(endpoints: OAuthEndpoints): ProviderStrategy {
  const as = staticMetadata(endpoints);
  return {
    scope: 'users.read tweet.read users.email',
    usesNonce: false,
    insecure: isHttp(endpoints.authorizationUrl, endpoints.tokenUrl, endpoints.userinfoUrl),
    metadata: async () => as,
    clientAuthentication: rawClientSecretBasic,
    async profile({ tokens, http }) {
      const url = new URL(endpoints.userinfoUrl);
      url.searchParams.set('user.fields', 'confirmed_email');
      const response = await oauth.protectedResourceRequest(
        tokens.access_token,
        'GET',
        url,
        new Headers({ accept: 'application/json' }),
        null,
        http(),
      );
      const { data } = parseOrThrow(twitterUserSchema, await readJson(response, 'X users/me'), 'X users/me');
      return {
        subject: data.id,
        email: optionalString(data.confirmed_email),
        emailVerified: optionalString(data.confirmed_email) !== undefined,
        name: optionalString(data.name),
      };
    },
  };
}

// Graph `GET /me?fields=id,name,email`: Facebook gives an e-mail only once its owner confirmed it.
const facebookUserSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
});

/** Facebook: OAuth 2.0 (PKCE sent too); the person from Graph `/me`. */
function facebookStrategy(endpoints: OAuthEndpoints): ProviderStrategy {
  const as = staticMetadata(endpoints);
  return {
    scope: 'email public_profile',
    usesNonce: false,
    // Asks again for a permission the person declined before (the e-mail, typically).
    authorizationParameters: { auth_type: 'rerequest' },
    insecure: isHttp(endpoints.authorizationUrl, endpoints.tokenUrl, endpoints.userinfoUrl),
    metadata: async () => as,
    clientAuthentication: (secret) => oauth.ClientSecretPost(secret),
    async profile({ tokens, credentials, http }) {
      const url = new URL(endpoints.userinfoUrl);
      url.searchParams.set('fields', 'id,name,email');
      // Proves the call comes from the app's server (required when the app enables "Require App Secret").
      url.searchParams.set(
        'appsecret_proof',
        createHmac('sha256', credentials.clientSecret).update(tokens.access_token).digest('hex'),
      );
      const response = await oauth.protectedResourceRequest(
        tokens.access_token,
        'GET',
        url,
        new Headers({ accept: 'application/json' }),
        null,
        http(),
      );
      const user = parseOrThrow(facebookUserSchema, await readJson(response, 'Graph /me'), 'Graph /me');
      return {
        subject: user.id,
        email: optionalString(user.email),
        emailVerified: optionalString(user.email) !== undefined,
        name: optionalString(user.name),
      };
    },
  };
}

/** The three sign-in providers from the configuration; one without credentials reports `configured: false`. */
export function createSocialProviders(config: OAuthConfig): SocialProviders {
  const strategies: Record<SocialProvider, ProviderStrategy> = {
    google: googleStrategy(config.google.issuer),
    twitter: twitterStrategy(config.twitter),
    facebook: facebookStrategy(config.facebook),
  };
  return Object.fromEntries(
    SOCIAL_PROVIDERS.map((provider) => [
      provider,
      createClient(provider, config[provider].credentials, strategies[provider]),
    ]),
  ) as SocialProviders;
}
