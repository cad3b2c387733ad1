import type { AccountProvider } from '@digest/contracts';
import type { AccountTokens } from '../../sources/connector';
import { summariseError } from '../auth/social/social.errors';
import { accountErrors } from './accounts.errors';
import { GrantRefusedError } from './accounts.providers';
import * as repository from './accounts.repository';
import { type AccountsDeps, isUuid, listConnectedAccounts, summaryOf } from './accounts.usecases';

/** An access token this close to its expiry is renewed first: it must survive the provider call it is for. */
export const REFRESH_MARGIN_MS = 60 * 1000;

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/**
 * The connectors' access to connected accounts: decrypts the stored token, renews it when it has expired
 * (saving a rotated refresh token), and refuses an account that is not the user's. One renewal per account
 * at a time in this process: a rotated refresh token used twice would be refused by the provider.
 */
export function createAccountTokens(deps: AccountsDeps): AccountTokens {
  const refreshing = new Map<string, Promise<repository.ConnectedAccountRow>>();

  const expired = (row: repository.ConnectedAccountRow) =>
    row.expiresAt !== null && row.expiresAt.getTime() - REFRESH_MARGIN_MS <= deps.clock.now().getTime();

  const decrypt = (provider: AccountProvider, sealed: string) => {
    try {
      return deps.cipher.decrypt(sealed);
    } catch {
      // Sealed with another APP_SECRET (or altered): only connecting again can help.
      throw accountErrors.reconnect(provider);
    }
  };

  async function renew(userId: string, tokenId: string, provider: AccountProvider) {
    // Read again inside the single flight: a renewal that just finished has already stored fresh tokens.
    const row = await repository.findAccount(deps.db, userId, tokenId, provider);
    if (!row) throw accountErrors.notConnected();
    if (!expired(row)) return row;
    if (row.refreshTokenEnc === null) throw accountErrors.reconnect(provider);
    let tokens: Awaited<ReturnType<AccountsDeps['providers'][AccountProvider]['refresh']>>;
    try {
      tokens = await deps.providers[provider].refresh(decrypt(provider, row.refreshTokenEnc));
    } catch (error) {
      if (error instanceof GrantRefusedError) {
        deps.logger.warn(
          { provider, tokenId, failure: summariseError(error) },
          'provider refused a token refresh',
        );
        throw accountErrors.reconnect(provider);
      }
      deps.logger.warn({ provider, tokenId, failure: summariseError(error) }, 'token refresh failed');
      throw accountErrors.refreshFailed(provider, isTimeout(error));
    }
    const now = deps.clock.now();
    const updated = await repository.updateTokens(deps.db, userId, tokenId, {
      accessTokenEnc: deps.cipher.encrypt(tokens.accessToken),
      // X rotates refresh tokens (the old one stops working); Google keeps its one and sends none.
      refreshTokenEnc:
        tokens.refreshToken === undefined ? row.refreshTokenEnc : deps.cipher.encrypt(tokens.refreshToken),
      expiresAt:
        tokens.expiresInSeconds === undefined
          ? null
          : new Date(now.getTime() + tokens.expiresInSeconds * 1000),
      ...(tokens.scopes === undefined ? {} : { scopes: tokens.scopes }),
      updatedAt: now,
    });
    // Disconnected while the provider answered.
    if (!updated) throw accountErrors.notConnected();
    return updated;
  }

  function renewOnce(userId: string, tokenId: string, provider: AccountProvider) {
    let flight = refreshing.get(tokenId);
    if (!flight) {
      flight = renew(userId, tokenId, provider).finally(() => refreshing.delete(tokenId));
      refreshing.set(tokenId, flight);
    }
    return flight;
  }

  return {
    async accessToken(userId, tokenId, provider) {
      if (!isUuid(tokenId)) throw accountErrors.notConnected();
      let row = await repository.findAccount(deps.db, userId, tokenId, provider);
      if (!row) throw accountErrors.notConnected();
      if (expired(row)) {
        row = await renewOnce(userId, tokenId, provider);
      }
      return { accessToken: decrypt(provider, row.accessTokenEnc), account: summaryOf(row) };
    },
    list: (userId, provider) => listConnectedAccounts(deps, userId, provider),
  };
}
