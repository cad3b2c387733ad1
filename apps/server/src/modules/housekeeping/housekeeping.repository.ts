import { gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import {
  emailVerifications,
  oauthStates,
  passwordResets,
  refreshTokens,
  releasedUsernames,
  sessions,
  socialTickets,
  sourceCache,
} from '#server/db/schema';
import { usernameReservationCutoff } from '#server/modules/users/users.rules';

/**
 * Rows past their expiry can never be used again: sessions (with their refresh tokens), resets, e-mail
 * verification links, OAuth states,
 * tickets, and reservations of given-up usernames.
 */
export async function deleteExpiredTokens(db: Database, now: Date) {
  const expiredSessions = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ id: sessions.sessionId });
  const refresh = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, now))
    .returning({ id: refreshTokens.tokenId });
  const resets = await db
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, now))
    .returning({ id: passwordResets.resetId });
  const verifications = await db
    .delete(emailVerifications)
    .where(lt(emailVerifications.expiresAt, now))
    .returning({ id: emailVerifications.verificationId });
  const states = await db
    .delete(oauthStates)
    .where(lt(oauthStates.expiresAt, now))
    .returning({ id: oauthStates.stateHash });
  const tickets = await db
    .delete(socialTickets)
    .where(lt(socialTickets.expiresAt, now))
    .returning({ id: socialTickets.ticketHash });
  const reservations = await db
    .delete(releasedUsernames)
    .where(lt(releasedUsernames.releasedAt, usernameReservationCutoff(now)))
    .returning({ id: releasedUsernames.usernameLower });
  return {
    sessions: expiredSessions.length,
    socialTickets: tickets.length,
    refreshTokens: refresh.length,
    passwordResets: resets.length,
    emailVerifications: verifications.length,
    oauthStates: states.length,
    usernameReservations: reservations.length,
  };
}

/**
 * Content-cache rows stale for longer than `graceMs` (kept that long so a conditional GET can renew
 * them), then the least recently fetched beyond `maxBytes`, so the table stays bounded.
 */
export async function deleteStaleSourceCache(
  db: Database,
  now: Date,
  limits: { graceMs: number; maxBytes: number },
) {
  const expired = await db
    .delete(sourceCache)
    .where(lt(sourceCache.expiresAt, new Date(now.getTime() - limits.graceMs)))
    .returning({ id: sourceCache.keyHash });
  const newestFirst = db
    .select({
      keyHash: sourceCache.keyHash,
      bytesSoFar:
        sql<number>`sum(${sourceCache.size}) over (order by ${sourceCache.fetchedAt} desc, ${sourceCache.keyHash})`.as(
          'bytes_so_far',
        ),
    })
    .from(sourceCache)
    .as('newest_first');
  const overflow = await db
    .delete(sourceCache)
    .where(
      inArray(
        sourceCache.keyHash,
        db
          .select({ keyHash: newestFirst.keyHash })
          .from(newestFirst)
          .where(gt(newestFirst.bytesSoFar, limits.maxBytes)),
      ),
    )
    .returning({ id: sourceCache.keyHash });
  return { expired: expired.length, overSizeBound: overflow.length };
}
