import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { passwordResets, refreshTokens, sessions } from '#server/db/schema';

export async function insertSession(db: Database, values: { userId: string; expiresAt: Date }) {
  const [row] = await db.insert(sessions).values(values).returning();
  if (!row) throw new Error('insert into sessions returned no row');
  return row;
}

export async function findSession(db: Database, sessionId: string) {
  const [row] = await db.select().from(sessions).where(eq(sessions.sessionId, sessionId));
  return row;
}

/** Whether an access token's session still stands: not revoked, not expired, and the user's own. */
/** The session's expiry while it stands (the user's own, not revoked, not expired), else undefined. */
export async function findActiveSessionExpiry(db: Database, sessionId: string, userId: string, now: Date) {
  const [row] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.sessionId, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  return row?.expiresAt;
}

export async function extendSession(db: Database, sessionId: string, expiresAt: Date) {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.sessionId, sessionId));
}

export async function revokeSession(db: Database, sessionId: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.sessionId, sessionId), isNull(sessions.revokedAt)));
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, sessionId), isNull(refreshTokens.revokedAt)));
}

/** Every session of the user except `keepSessionId` (a password change keeps the device that made it). */
export async function revokeUserSessions(db: Database, userId: string, now: Date, keepSessionId?: string) {
  const others = keepSessionId ? ne(sessions.sessionId, keepSessionId) : undefined;
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), others));
  const otherFamilies = keepSessionId ? ne(refreshTokens.familyId, keepSessionId) : undefined;
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), otherFamilies));
}

export async function insertRefreshToken(
  db: Database,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshToken(db: Database, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a refresh token used; false when it already was (a concurrent or replayed use). */
export async function markRefreshTokenUsed(db: Database, tokenId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.tokenId, tokenId), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.tokenId });
  return rows.length === 1;
}

export async function insertPasswordReset(
  db: Database,
  values: { userId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(passwordResets).values(values);
}

/** Uses a reset token once: the user it belongs to, or undefined when unknown, used or expired. */
export async function consumePasswordReset(db: Database, tokenHash: string, now: Date) {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return row?.userId;
}

/** After a reset, the user's other outstanding reset links stop working too. */
export async function expireUserPasswordResets(db: Database, userId: string, now: Date) {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
