import { timingSafeEqual } from 'node:crypto';
import { type AccountProvider, connectPathNameOf } from '@digest/contracts';
import * as oauth from 'oauth4webapi';
import type { Database } from '#server/db/client';
import { summariseError } from '#server/modules/auth/social/social.errors';
import type { Clock } from '#server/platform/clock';
import { hashToken, randomToken } from '#server/platform/crypto';
import type { Logger } from '#server/platform/logger';
import type { ConnectedAccountSummary } from '#server/sources/connector';
import { accountErrors } from './accounts.errors';
import { type AccountProviderClients, MissingScopeError } from './accounts.providers';
import * as repository from './accounts.repository';
import { type TokenCipher, tokenContext } from './token-cipher';

/** How long a person may take from pressing Connect to coming back from the provider. */
export const CONNECT_STATE_TTL_MS = 10 * 60 * 1000;
/** How long the start address handed to the web app stays usable. */
export const CONNECT_START_TTL_MS = 2 * 60 * 1000;
/** Where the browser returns when the flow did not say. */
export const DEFAULT_RETURN_PATH = '/accounts';

export interface AccountsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  appUrl: string;
  cipher: TokenCipher;
  providers: AccountProviderClients;
  /** Several processes share the database (PostgreSQL): token renewals lock the account's row. */
  lockAcrossProcesses: boolean;
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

/** `/api/auth/{google,twitter,stripe}/tokens`: the start address, and the cookie's path. */
export const connectPath = (provider: AccountProvider) => `/api/auth/${connectPathNameOf(provider)}/tokens`;

/** The provider must have this registered as a redirect URI. */
export const connectRedirectUri = (appUrl: string, provider: AccountProvider) =>
  `${appUrl}${connectPath(provider)}/callback`;

export const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

function sameSecret(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function summaryOf(row: repository.ConnectedAccountRow): ConnectedAccountSummary {
  return {
    tokenId: row.tokenId,
    tokenType: row.provider as AccountProvider,
    providerAccountId: row.providerAccountId,
    email: row.email,
    username: row.username,
    profilePicture: row.profilePicture,
    scopes: row.scopes === null ? null : row.scopes.split(' ').filter(Boolean),
  };
}

/**
 * The signed-in user asks to connect an account: a random state (stored hashed with the user, the PKCE
 * verifier and where to come back) that the browser keeps in a cookie. Answers the state and the start
 * address the browser then navigates to (the navigation cannot carry the bearer token).
 */
export async function requestConnect(
  deps: AccountsDeps,
  userId: string,
  provider: AccountProvider,
  returnTo: string | undefined,
) {
  if (!deps.providers[provider].configured) throw accountErrors.notConfigured(provider);
  const now = deps.clock.now();
  const state = randomToken();
  await repository.insertConnectState(
    deps.db,
    {
      stateHash: hashToken(state),
      userId,
      provider,
      codeVerifier: oauth.generateRandomCodeVerifier(),
      nonce: deps.providers[provider].usesNonce ? randomToken() : null,
      returnTo: returnTo ?? DEFAULT_RETURN_PATH,
      expiresAt: later(now, CONNECT_STATE_TTL_MS),
      createdAt: now,
    },
    now,
  );
  return { state, url: `${deps.appUrl}${connectPath(provider)}` };
}

/**
 * The browser arrives at the start address with its cookie: once per state, within minutes of the request.
 * Answers the provider's authorization URL. A link to this address sent to someone else does nothing: their
 * browser holds no state cookie.
 */
export async function startConnect(
  deps: AccountsDeps,
  provider: AccountProvider,
  browserState: string | undefined,
) {
  const client = deps.providers[provider];
  if (!client.configured) throw accountErrors.connectNotConfigured(provider);
  if (!browserState) throw accountErrors.invalidState(provider, 'no_state_cookie');
  const now = deps.clock.now();
  const stored = await repository.markConnectStarted(deps.db, hashToken(browserState), provider, now);
  if (!stored) throw accountErrors.invalidState(provider, 'unknown_or_used_state');
  if (stored.createdAt.getTime() + CONNECT_START_TTL_MS <= now.getTime()) {
    throw accountErrors.invalidState(provider, 'expired_start').backTo(stored.returnTo);
  }
  try {
    const url = await client.authorizationUrl({
      redirectUri: connectRedirectUri(deps.appUrl, provider),
      state: browserState,
      codeChallenge: await oauth.calculatePKCECodeChallenge(stored.codeVerifier),
      nonce: stored.nonce ?? undefined,
    });
    return url.href;
  } catch (error) {
    throw accountErrors.unavailable(provider).because(error).backTo(stored.returnTo);
  }
}

export interface ConnectCallback {
  provider: AccountProvider;
  /** The callback's query as the provider sent it. */
  parameters: URLSearchParams;
  /** The state cookie of the browser; binds the flow to the browser that started it. */
  browserState: string | undefined;
}

/**
 * The provider sends the browser back: uses up the state, exchanges the code (with the PKCE verifier), reads
 * who the account is and stores its tokens encrypted, for the user who asked. Answers where to go back to.
 */
export async function completeConnect(deps: AccountsDeps, callback: ConnectCallback) {
  const { provider, parameters } = callback;
  const state = parameters.get('state');
  const stored = state ? await repository.consumeConnectState(deps.db, hashToken(state)) : undefined;
  if (!state || !stored)
    throw accountErrors.invalidState(provider, state ? 'unknown_state' : 'missing_state');
  const fail = (error: ReturnType<typeof accountErrors.failed>) => error.backTo(stored.returnTo);

  const error = parameters.get('error');
  if (error)
    throw fail(
      error === 'access_denied' ? accountErrors.cancelled(provider) : accountErrors.failed(provider),
    );
  if (stored.provider !== provider || !stored.startedAt) {
    throw fail(accountErrors.invalidState(provider, 'state_of_another_flow'));
  }
  const now = deps.clock.now();
  if (stored.expiresAt <= now) throw fail(accountErrors.invalidState(provider, 'expired_state'));
  if (!callback.browserState || !sameSecret(callback.browserState, state)) {
    throw fail(accountErrors.invalidState(provider, 'state_not_from_this_browser'));
  }
  const client = deps.providers[provider];
  if (!client.configured) throw fail(accountErrors.connectNotConfigured(provider));

  let result: Awaited<ReturnType<typeof client.exchange>>;
  try {
    result = await client.exchange({
      callbackParameters: parameters,
      state,
      redirectUri: connectRedirectUri(deps.appUrl, provider),
      codeVerifier: stored.codeVerifier,
      nonce: stored.nonce ?? undefined,
    });
  } catch (cause) {
    const failure =
      cause instanceof MissingScopeError
        ? accountErrors.missingScope(provider)
        : accountErrors.failed(provider);
    throw fail(failure.because(cause));
  }
  const { identity, tokens } = result;
  // The tokens are bound to the row they are stored in (owner, provider, account): the upsert's key.
  const context = tokenContext({
    userId: stored.userId,
    provider,
    providerAccountId: identity.providerAccountId,
  });
  const row = await repository.upsertAccount(deps.db, {
    userId: stored.userId,
    provider,
    providerAccountId: identity.providerAccountId,
    email: identity.email,
    username: identity.username,
    profilePicture: identity.profilePicture,
    accessTokenEnc: deps.cipher.encrypt(tokens.accessToken, context),
    refreshTokenEnc:
      tokens.refreshToken === undefined ? null : deps.cipher.encrypt(tokens.refreshToken, context),
    expiresAt: tokens.expiresInSeconds === undefined ? null : later(now, tokens.expiresInSeconds * 1000),
    scopes: tokens.scopes ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return { returnTo: stored.returnTo, account: summaryOf(row) };
}

export async function listConnectedAccounts(
  deps: Pick<AccountsDeps, 'db'>,
  userId: string,
  provider?: AccountProvider,
) {
  return (await repository.listAccounts(deps.db, userId, provider)).map(summaryOf);
}

/**
 * Log Out of a connected account: the row goes (only the owner's: the query names them), then the grant is
 * ended at the provider. A provider that cannot be reached does not keep the account connected here.
 *
 * Two Digest users may connect the same provider account, and revoking a Google token or deauthorizing a
 * Stripe account ends it for both: while another row holds the same account, the grant is left alone.
 * (Whoever removes the last row revokes it: each checks after its own removal.)
 */
export async function disconnectAccount(deps: AccountsDeps, userId: string, tokenId: string) {
  const row = isUuid(tokenId) ? await repository.deleteAccount(deps.db, userId, tokenId) : undefined;
  if (!row) throw accountErrors.accountNotFound();
  const provider = row.provider as AccountProvider;
  if (await repository.isAccountConnected(deps.db, provider, row.providerAccountId)) {
    deps.logger.info(
      { provider, tokenId: row.tokenId },
      'another user still has this account connected; its grant is not revoked',
    );
    return;
  }
  try {
    const context = tokenContext(row);
    await deps.providers[provider].revoke({
      accessToken: deps.cipher.decrypt(row.accessTokenEnc, context),
      refreshToken:
        row.refreshTokenEnc === null ? undefined : deps.cipher.decrypt(row.refreshTokenEnc, context),
      providerAccountId: row.providerAccountId,
    });
  } catch (error) {
    deps.logger.warn(
      { provider, tokenId: row.tokenId, failure: summariseError(error) },
      'revoking a disconnected account at its provider failed; the account is removed here anyway',
    );
  }
}
