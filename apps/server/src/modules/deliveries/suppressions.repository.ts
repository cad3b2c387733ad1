import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestSubscribers, digests, mailSuppressions, type SuppressionReason } from '#server/db/schema';

/** Adds an address to the suppression list: for one owner, or for every owner (`ownerId` null). */
export async function suppress(
  db: Database,
  email: string,
  ownerId: string | null,
  reason: SuppressionReason,
  now: Date,
) {
  await db.insert(mailSuppressions).values({ email, ownerId, reason, createdAt: now }).onConflictDoNothing();
}

/** The address asked for this owner's mail again (it accepted an invitation): the owner's entry goes. */
export async function liftOwnerSuppression(db: Database, email: string, ownerId: string) {
  await db
    .delete(mailSuppressions)
    .where(and(eq(mailSuppressions.email, email), eq(mailSuppressions.ownerId, ownerId)));
}

/** The status a suppressed address shows to an owner; the reason of another owner's entry is never told. */
const STATUS_OF_REASON = {
  declined: 'declined',
  unsubscribed: 'unsubscribed',
  bounced: 'bouncing',
  refused: 'declined',
} as const;
export type SuppressedStatus = (typeof STATUS_OF_REASON)[SuppressionReason];

/**
 * Which of `emails` this owner may not invite, and the status each shows: the owner's own entry first
 * (declined, unsubscribed), then the entries for every owner (bounced, "never invite me again").
 */
export async function suppressedFor(db: Database, ownerId: string, emails: string[]) {
  const found = new Map<string, SuppressedStatus>();
  if (emails.length === 0) return found;
  const rows = await db
    .select({
      email: mailSuppressions.email,
      ownerId: mailSuppressions.ownerId,
      reason: mailSuppressions.reason,
    })
    .from(mailSuppressions)
    .where(
      and(
        inArray(mailSuppressions.email, emails),
        or(eq(mailSuppressions.ownerId, ownerId), isNull(mailSuppressions.ownerId)),
      ),
    );
  for (const row of rows.sort((a, b) => Number(a.ownerId === null) - Number(b.ownerId === null))) {
    if (!found.has(row.email)) found.set(row.email, STATUS_OF_REASON[row.reason as SuppressionReason]);
  }
  return found;
}

/**
 * A permanent refusal (SMTP 5xx) for an address: every owner's friend with that address shows `bouncing`
 * and gets no more issues, and no owner may invite it again.
 */
export async function recordBounce(db: Database, email: string, now: Date) {
  await db
    .update(digestSubscribers)
    .set({ status: 'bouncing' })
    .where(
      and(eq(digestSubscribers.email, email), inArray(digestSubscribers.status, ['invited', 'subscribed'])),
    );
  await suppress(db, email, null, 'bounced', now);
}

/**
 * A friend's mail server reported an issue as abuse (a complaint): the friend is unsubscribed from that
 * digest, as their own Unsubscribe would, and its owner may not invite the address again.
 */
export async function unsubscribeAfterComplaint(db: Database, subscriberId: string, now: Date) {
  const [row] = await db
    .select({ email: digestSubscribers.email, ownerId: digests.userId })
    .from(digestSubscribers)
    .innerJoin(digests, eq(digests.digestId, digestSubscribers.digestId))
    .where(eq(digestSubscribers.subscriberId, subscriberId));
  if (!row) return;
  await db
    .update(digestSubscribers)
    .set({
      status: 'unsubscribed',
      noticePending: false,
      unsubscribedAt: sql`coalesce(${digestSubscribers.unsubscribedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(digestSubscribers.subscriberId, subscriberId));
  await suppress(db, row.email, row.ownerId, 'unsubscribed', now);
}
