import * as oauth from 'oauth4webapi';
import type { z } from 'zod';

/**
 * The OAuth client pieces social sign-in (modules/auth/social) and connected accounts (modules/accounts)
 * share: timeouts, Google's cached discovery, the authorization URL, the code exchange and reading a
 * protected JSON resource through oauth4webapi, and the checks on what a provider answers.
 */

/** Every call to a provider gives up after this long. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** How long Google's discovery document is trusted before it is read again. */
const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000;

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

export type HttpOptions = { [oauth.allowInsecureRequests]?: boolean; signal: AbortSignal };

/** The options of one call: a fresh timeout each time; plain http only for loopback endpoints (config enforces it). */
export const httpOptions = (insecure: boolean) => (): HttpOptions => ({
  ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
  signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
});

export const isHttp = (...urls: string[]) => urls.some((url) => new URL(url).protocol === 'http:');

/** A provider answered in a shape we cannot use (never carries the provider's body). */
export class ProviderResponseError extends Error {
  override name = 'ProviderResponseError';
}

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

/**
 * Google's metadata by OpenID Connect discovery, read again once a day; `adjust` completes what the
 * document leaves out. One object per discovery: oauth4webapi caches the JWKS per metadata object.
 */
export function cachedDiscovery(
  issuer: string,
  adjust: (as: oauth.AuthorizationServer) => oauth.AuthorizationServer = (as) => as,
) {
  let cached: { as: oauth.AuthorizationServer; until: number } | undefined;
  return async (http: () => HttpOptions): Promise<oauth.AuthorizationServer> => {
    if (cached && cached.until > Date.now()) return cached.as;
    const issuerUrl = new URL(issuer);
    const response = await oauth.discoveryRequest(issuerUrl, { ...http(), algorithm: 'oidc' });
    const as = adjust(await oauth.processDiscoveryResponse(issuerUrl, response));
    cached = { as, until: Date.now() + DISCOVERY_TTL_MS };
    return as;
  };
}

/** Metadata of a provider without discovery; its issuer is only a name here (these send no ID token). */
export const staticMetadata = (endpoints: {
  authorizationUrl: string;
  tokenUrl: string;
}): oauth.AuthorizationServer => ({
  issuer: new URL(endpoints.authorizationUrl).origin,
  authorization_endpoint: endpoints.authorizationUrl,
  token_endpoint: endpoints.tokenUrl,
});

/** The authorization endpoint with the request's parameters in its query. */
export function authorizationUrlOf(endpoint: string, parameters: Record<string, string>): URL {
  const url = new URL(endpoint);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url;
}

/** The authorization code request with PKCE: `response_type`, `redirect_uri`, `code_challenge`… */
export const pkceAuthorizationParameters = (
  clientId: string,
  scope: string,
  { redirectUri, state, codeChallenge }: AuthorizationRequest,
) => ({
  client_id: clientId,
  response_type: 'code',
  redirect_uri: redirectUri,
  scope,
  state,
  code_challenge: codeChallenge,
  code_challenge_method: 'S256',
});

/** Checks the callback against the state we sent and trades its code for the token endpoint's response. */
export function requestCodeGrant(
  endpoint: { as: oauth.AuthorizationServer; client: oauth.Client; auth: oauth.ClientAuth },
  exchange: CodeExchange,
  http: () => HttpOptions,
): Promise<Response> {
  const { as, client, auth } = endpoint;
  const parameters = oauth.validateAuthResponse(as, client, exchange.callbackParameters, exchange.state);
  return oauth.authorizationCodeGrantRequest(
    as,
    client,
    auth,
    parameters,
    exchange.redirectUri,
    exchange.codeVerifier,
    http(),
  );
}

/** GET of a JSON resource with the access token (X `/2/users/me`, Graph `/me`), read as `what`. */
export async function getProtectedJson(
  accessToken: string,
  url: URL,
  http: () => HttpOptions,
  what: string,
): Promise<unknown> {
  const response = await oauth.protectedResourceRequest(
    accessToken,
    'GET',
    url,
    new Headers({ accept: 'application/json' }),
    null,
    http(),
  );
  return readJson(response, what);
}
