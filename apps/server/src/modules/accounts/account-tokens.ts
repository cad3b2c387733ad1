import type { AccountProvider } from '@digest/contracts';
import { summariseError } from '#server/modules/auth/social/social.errors';
import type { AccountTokens } from '#server/sources/connector';
import { accountErrors } from './accounts.errors';
import { GrantRefusedError } from './accounts.providers';
import * as repository from './accounts.repository';
import { type AccountsDeps, isUuid, listConnectedAccounts, summaryOf } from './accounts.usecases';
import { tokenContext } from './token-cipher';

/** An access token this close to its expiry is renewed first: it must survive the provider call it is for. */
export const REFRESH_MARGIN_MS = 60 * 1000;

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/**
 * The connectors' access to connected accounts: decrypts the stored token, renews it when it has expired
 * (saving a rotated refresh token), and refuses an account that is not the user's.
 *
 * One renewal per account at a time, across every process: X rotates refresh tokens, so a refresh token
 * used twice is refused (and the account would look disconnected). On PostgreSQL a renewal locks the
 * account's row (`SELECT … FOR UPDATE`) until it has stored the new tokens; a process that waited on the
 * lock reads the row again and uses the token the other one stored. The embedded database has one process. Within one process, concurrent callers share one
 * renewal, so they do not each hold a database connection while waiting.
 */
export function createAccountTokens(deps: AccountsDeps): AccountTokens {
  const refreshing = new Map<string, Promise<repository.ConnectedAccountRow>>();

  const expired = (row: repository.ConnectedAccountRow) =>
    row.expiresAt !== null && row.expiresAt.getTime() - REFRESH_MARGIN_MS <= deps.clock.now().getTime();

  const decrypt = (row: repository.ConnectedAccountRow, sealed: string) => {
    try {
      return deps.cipher.decrypt(sealed, tokenContext(row));
    } catch {
      // Sealed with another APP_SECRET, altered, or copied from another row: only connecting again can help.
      throw accountErrors.reconnect(row.provider as AccountProvider);
    }
  };

  function renew(userId: string, tokenId: string, provider: AccountProvider) {
    // One process (the embedded database) needs no lock: the single-flight below is enough, and a
    // PGlite transaction would hold up every other query while the provider answers.
    if (!deps.lockAcrossProcesses) {
      return renewWith(deps.db, () => repository.findAccount(deps.db, userId, tokenId, provider));
    }
    // The lock is held while the provider answers (bounded by its timeout): the point is that no other
    // process sends the same refresh token meanwhile.
    return deps.db.transaction((tx) =>
      renewWith(tx, () => repository.lockAccount(tx, userId, tokenId, provider)),
    );

    async function renewWith(
      db: typeof deps.db,
      readRow: () => Promise<repository.ConnectedAccountRow | undefined>,
    ): Promise<repository.ConnectedAccountRow> {
      const row = await readRow();
      if (!row) throw accountErrors.notConnected();
      // Another process renewed it while this one waited on the lock: its token is good.
      if (!expired(row)) return row;
      if (row.refreshTokenEnc === null) throw accountErrors.reconnect(provider);
      let tokens: Awaited<ReturnType<AccountsDeps['providers'][AccountProvider]['refresh']>>;
      try {
        tokens = await deps.providers[provider].refresh(decrypt(row, row.refreshTokenEnc));
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
      const context = tokenContext(row);
      const updated = await repository.updateTokens(db, userId, tokenId, {
        accessTokenEnc: deps.cipher.encrypt(tokens.accessToken, context),
        // X rotates refresh tokens (the old one stops working); Google keeps its one and sends none.
        refreshTokenEnc:
          tokens.refreshToken === undefined
            ? row.refreshTokenEnc
            : deps.cipher.encrypt(tokens.refreshToken, context),
        expiresAt:
          tokens.expiresInSeconds === undefined
            ? null
            : new Date(now.getTime() + tokens.expiresInSeconds * 1000),
        ...(tokens.scopes === undefined ? {} : { scopes: tokens.scopes }),
        updatedAt: now,
      });
      // Only this user's Log Out can have removed the row meanwhile.
      if (!updated) throw accountErrors.notConnected();
      return updated;
    }
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
      return { accessToken: decrypt(row, row.accessTokenEnc), account: summaryOf(row) };
    },
    list: (userId, provider) => listConnectedAccounts(deps, userId, provider),
  };
}
