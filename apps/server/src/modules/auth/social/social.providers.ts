import { createHmac } from 'node:crypto';
import { SOCIAL_PROVIDERS, type SocialProvider } from '@digest/contracts';
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
  ProviderResponseError,
  parseOrThrow,
  pkceAuthorizationParameters,
  rawClientSecretBasic,
  requestCodeGrant,
  staticMetadata,
} from '../oauth-client';
import type { OAuthConfig, OAuthCredentials, OAuthEndpoints } from '../oauth-config';

/** What the provider says about the person who signed in. */
export interface ProviderProfile {
  /** The provider's stable id of the account (`sub`, X user id, Facebook app-scoped id). */
  subject: string;
  email: string | undefined;
  /** True only when the provider vouches that the person controls `email`. */
  emailVerified: boolean;
  name: string | undefined;
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

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function createClient(
  provider: SocialProvider,
  credentials: OAuthCredentials | undefined,
  strategy: ProviderStrategy,
): SocialProviderClient {
  const http = httpOptions(strategy.insecure);
  const requireCredentials = () => {
    if (!credentials) throw new Error(`${provider} sign-in has no credentials`);
    return credentials;
  };

  return {
    provider,
    configured: credentials !== undefined,
    usesNonce: strategy.usesNonce,

    async authorizationUrl(request) {
      const { clientId } = requireCredentials();
      const as = await strategy.metadata(http);
      if (!as.authorization_endpoint) throw new ProviderResponseError('no authorization endpoint');
      return authorizationUrlOf(as.authorization_endpoint, {
        ...pkceAuthorizationParameters(clientId, strategy.scope, request),
        ...(request.nonce ? { nonce: request.nonce } : {}),
        ...strategy.authorizationParameters,
      });
    },

    async exchange(exchange) {
      const credentials = requireCredentials();
      const as = await strategy.metadata(http);
      const client: oauth.Client = { client_id: credentials.clientId };
      const auth = strategy.clientAuthentication(credentials.clientSecret);
      const tokenResponse = await requestCodeGrant({ as, client, auth }, exchange, http);
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse, {
        ...(strategy.usesNonce
          ? { expectedNonce: exchange.nonce ?? oauth.expectNoNonce, requireIdToken: true }
          : {}),
      });
      return strategy.profile({ as, client, tokens, tokenResponse, credentials, http });
    },
  };
}

/** Google: OpenID Connect with discovery; the person comes from the ID token, checked against the JWKS. */
function googleStrategy(issuer: string): ProviderStrategy {
  return {
    scope: 'openid email profile',
    usesNonce: true,
    insecure: isHttp(issuer),
    metadata: cachedDiscovery(issuer),
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
      const me = await getProtectedJson(tokens.access_token, url, http, 'X users/me');
      const { data } = parseOrThrow(twitterUserSchema, me, 'X users/me');
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
      const me = await getProtectedJson(tokens.access_token, url, http, 'Graph /me');
      const user = parseOrThrow(facebookUserSchema, me, 'Graph /me');
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
