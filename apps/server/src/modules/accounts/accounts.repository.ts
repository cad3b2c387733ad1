import type { AccountProvider } from '@digest/contracts';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { accountConnectStates, connectedAccounts } from '#server/db/schema';

export type ConnectedAccountRow = typeof connectedAccounts.$inferSelect;

/** Inserts a connect state, and clears the expired ones (cheap: an index on expires_at). */
export async function insertConnectState(
  db: Database,
  values: typeof accountConnectStates.$inferInsert,
  now: Date,
) {
  await db.delete(accountConnectStates).where(lt(accountConnectStates.expiresAt, now));
  await db.insert(accountConnectStates).values(values);
}

/** The browser goes to the provider once per state: the first start wins, any later one finds nothing. */
export async function markConnectStarted(
  db: Database,
  stateHash: string,
  provider: AccountProvider,
  now: Date,
) {
  const [row] = await db
    .update(accountConnectStates)
    .set({ startedAt: now })
    .where(
      and(
        eq(accountConnectStates.stateHash, stateHash),
        eq(accountConnectStates.provider, provider),
        isNull(accountConnectStates.startedAt),
      ),
    )
    .returning();
  return row;
}

/** Takes a state out for good: whatever happens next, it cannot be presented twice. */
export async function consumeConnectState(db: Database, stateHash: string) {
  const [row] = await db
    .delete(accountConnectStates)
    .where(eq(accountConnectStates.stateHash, stateHash))
    .returning();
  return row;
}

/** Connecting an account the user already connected updates its row (same tokenId). */
export async function upsertAccount(db: Database, values: typeof connectedAccounts.$inferInsert) {
  const [row] = await db
    .insert(connectedAccounts)
    .values(values)
    .onConflictDoUpdate({
      target: [connectedAccounts.userId, connectedAccounts.provider, connectedAccounts.providerAccountId],
      set: {
        email: values.email,
        username: values.username,
        profilePicture: values.profilePicture,
        accessTokenEnc: values.accessTokenEnc,
        // A provider that sends no new refresh token leaves the one it gave before in force.
        refreshTokenEnc: sql`coalesce(excluded.refresh_token_enc, ${connectedAccounts.refreshTokenEnc})`,
        expiresAt: values.expiresAt,
        scopes: values.scopes,
        updatedAt: values.updatedAt,
      },
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** One of the user's accounts: the owner is part of the condition, so another user's id finds nothing. */
const ownAccount = (userId: string, tokenId: string, provider?: AccountProvider) =>
  and(
    eq(connectedAccounts.tokenId, tokenId),
    eq(connectedAccounts.userId, userId),
    provider ? eq(connectedAccounts.provider, provider) : undefined,
  );

export async function findAccount(db: Database, userId: string, tokenId: string, provider?: AccountProvider) {
  const [row] = await db
    .select()
    .from(connectedAccounts)
    .where(ownAccount(userId, tokenId, provider));
  return row;
}

/**
 * Like findAccount, and locks the row (`FOR UPDATE`) until the transaction `tx` ends: another process
 * locking the same account waits until then, and reads what this one stored.
 */
export async function lockAccount(tx: Database, userId: string, tokenId: string, provider: AccountProvider) {
  const [row] = await tx
    .select()
    .from(connectedAccounts)
    .where(ownAccount(userId, tokenId, provider))
    .for('update');
  return row;
}

/** Whether any Digest user (the one disconnecting is already removed) still has this provider account. */
export async function isAccountConnected(db: Database, provider: AccountProvider, providerAccountId: string) {
  const [row] = await db
    .select({ tokenId: connectedAccounts.tokenId })
    .from(connectedAccounts)
    .where(
      and(
        eq(connectedAccounts.provider, provider),
        eq(connectedAccounts.providerAccountId, providerAccountId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The user's accounts (of one provider), oldest first. */
export async function listAccounts(db: Database, userId: string, provider?: AccountProvider) {
  return db
    .select()
    .from(connectedAccounts)
    .where(
      and(
        eq(connectedAccounts.userId, userId),
        provider ? eq(connectedAccounts.provider, provider) : undefined,
      ),
    )
    .orderBy(asc(connectedAccounts.createdAt), asc(connectedAccounts.tokenId));
}

export async function updateTokens(
  db: Database,
  userId: string,
  tokenId: string,
  values: Pick<ConnectedAccountRow, 'accessTokenEnc' | 'refreshTokenEnc' | 'expiresAt' | 'updatedAt'> & {
    scopes?: string | null;
  },
) {
  const [row] = await db.update(connectedAccounts).set(values).where(ownAccount(userId, tokenId)).returning();
  return row;
}

/** Removes one of the user's accounts and answers it, or undefined when it is not theirs (or already gone). */
export async function deleteAccount(db: Database, userId: string, tokenId: string) {
  const [row] = await db.delete(connectedAccounts).where(ownAccount(userId, tokenId)).returning();
  return row;
}
