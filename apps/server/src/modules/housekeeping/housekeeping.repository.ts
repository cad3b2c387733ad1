import { eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import {
  digestBuilds,
  digestSentItems,
  digests,
  emailVerifications,
  mailRecipientLog,
  oauthStates,
  passwordResets,
  refreshTokens,
  releasedUsernames,
  SENT_ITEMS_KEPT_DAYS,
  sessions,
  socialTickets,
  sourceCache,
} from '#server/db/schema';
import { MAIL_LIMIT_WINDOW_MS } from '#server/modules/deliveries/mail-limits';
import { usernameReservationCutoff } from '#server/modules/users/users.rules';

/**
 * Rows past their expiry can never be used again: sessions (with their refresh tokens), resets, e-mail
 * verification links, OAuth states, tickets, reservations of given-up usernames, and recipients logged
 * longer ago than the mail limits look.
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
  const recipients = await db
    .delete(mailRecipientLog)
    .where(lt(mailRecipientLog.createdAt, new Date(now.getTime() - MAIL_LIMIT_WINDOW_MS)))
    .returning({ id: mailRecipientLog.entryId });
  return {
    sessions: expiredSessions.length,
    mailRecipients: recipients.length,
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

/**
 * Issues older than their digest's retention (docs/product.md §3 "Issue retention"), with what hangs off
 * them: their deliveries (cascade) and their public pages; the runs that built them keep their record.
 */
export async function deleteExpiredIssues(db: Database, now: Date) {
  const expired = db
    .select({ buildId: digestBuilds.buildId })
    .from(digestBuilds)
    .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId))
    .where(
      lt(
        digestBuilds.createdAt,
        sql`${now.toISOString()}::timestamptz - make_interval(months => ${digests.issueRetentionMonths})`,
      ),
    );
  const deleted = await db
    .delete(digestBuilds)
    .where(inArray(digestBuilds.buildId, expired))
    .returning({ id: digestBuilds.buildId });
  return deleted.length;
}

/**
 * The items digests sent more than SENT_ITEMS_KEPT_DAYS ago: forgotten, so the record stays bounded
 * (an item that old coming back is shown again).
 */
export async function deleteForgottenSentItems(db: Database, now: Date) {
  const before = new Date(now.getTime() - SENT_ITEMS_KEPT_DAYS * 24 * 60 * 60 * 1000);
  const deleted = await db
    .delete(digestSentItems)
    .where(lt(digestSentItems.firstSentAt, before))
    .returning({ digestId: digestSentItems.digestId });
  return deleted.length;
}
