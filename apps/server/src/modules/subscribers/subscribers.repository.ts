import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestSubscribers, digests, users } from '#server/db/schema';

export type SubscriberRow = typeof digestSubscribers.$inferSelect;

/**
 * The owner's digest, locked until the transaction ends, so two changes of one subscriber list take
 * turns. Undefined when the digest is not this user's.
 */
export async function lockOwnedDigest(tx: Database, userId: string, digestId: string) {
  const [row] = await tx
    .select({ digestId: digests.digestId, name: digests.name })
    .from(digests)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)))
    .for('update');
  return row;
}

/** True when the digest exists and belongs to the user. */
export async function ownsDigest(db: Database, userId: string, digestId: string) {
  const [row] = await db
    .select({ digestId: digests.digestId })
    .from(digests)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)));
  return row !== undefined;
}

/** Every row of a digest, removed ones included (they keep the notice history). */
export function allSubscriberRows(tx: Database, digestId: string) {
  return tx.select().from(digestSubscribers).where(eq(digestSubscribers.digestId, digestId));
}

/** Friends the owner sees (any status, not removed), newest first; owner in the query. */
export function listVisibleSubscribers(db: Database, userId: string, digestId: string) {
  return db
    .select({
      email: digestSubscribers.email,
      status: digestSubscribers.status,
      subscribedAt: digestSubscribers.subscribedAt,
      unsubscribedAt: digestSubscribers.unsubscribedAt,
    })
    .from(digestSubscribers)
    .innerJoin(digests, eq(digests.digestId, digestSubscribers.digestId))
    .where(
      and(
        eq(digestSubscribers.digestId, digestId),
        eq(digests.userId, userId),
        isNull(digestSubscribers.removedAt),
      ),
    )
    .orderBy(desc(digestSubscribers.subscribedAt), asc(digestSubscribers.email));
}

export async function insertSubscriber(tx: Database, values: typeof digestSubscribers.$inferInsert) {
  const [row] = await tx.insert(digestSubscribers).values(values).returning();
  if (!row) throw new Error('insert into digest_subscribers returned no row');
  return row;
}

export async function updateSubscriber(
  tx: Database,
  subscriberId: string,
  changes: Partial<typeof digestSubscribers.$inferInsert>,
) {
  await tx.update(digestSubscribers).set(changes).where(eq(digestSubscribers.subscriberId, subscriberId));
}

/** Hides one address from the owner's digest (any status); false when there is none to remove. */
export async function removeSubscriber(
  db: Database,
  userId: string,
  digestId: string,
  email: string,
  now: Date,
) {
  const rows = await db
    .update(digestSubscribers)
    .set({ removedAt: now })
    .where(
      and(
        eq(digestSubscribers.digestId, digestId),
        eq(digestSubscribers.email, email),
        isNull(digestSubscribers.removedAt),
        sql`exists (select 1 from digests d where d.digest_id = ${digestId} and d.user_id = ${userId})`,
      ),
    )
    .returning({ subscriberId: digestSubscribers.subscriberId });
  return rows.length > 0;
}

const subscriptionColumns = {
  subscriberId: digestSubscribers.subscriberId,
  email: digestSubscribers.email,
  status: digestSubscribers.status,
  removedAt: digestSubscribers.removedAt,
  digestName: digests.name,
  scheduleType: digests.scheduleType,
  ownerId: users.userId,
  ownerName: users.fullName,
  ownerEmail: users.email,
};

/** The subscription a token stands for, with its digest and owner. */
export async function findSubscriptionByToken(db: Database, token: string) {
  const [row] = await db
    .select(subscriptionColumns)
    .from(digestSubscribers)
    .innerJoin(digests, eq(digests.digestId, digestSubscribers.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(eq(digestSubscribers.token, token));
  return row;
}

/** The friend's answer: accepted (`subscribed`), `declined` or `unsubscribed` (its first time is kept). */
export async function answerByToken(
  db: Database,
  token: string,
  status: 'subscribed' | 'declined' | 'unsubscribed',
  now: Date,
) {
  const times =
    status === 'subscribed'
      ? { subscribedAt: now, unsubscribedAt: null }
      : status === 'unsubscribed'
        ? {
            unsubscribedAt: sql`coalesce(${digestSubscribers.unsubscribedAt}, ${now.toISOString()}::timestamptz)`,
          }
        : {};
  await db
    .update(digestSubscribers)
    .set({ status, noticePending: false, ...times })
    .where(eq(digestSubscribers.token, token));
}

/**
 * Claims the pending invitation of a friend still invited (pending → not pending) and answers what the
 * mail needs; undefined when there is nothing to send. An invitation is claimed once, so a retried job
 * never sends it twice; `releaseNotice` gives it back when sending failed. Nothing is claimed while the
 * owner's address is unverified (it stays pending for releaseHeldMailJob) or when the address was
 * suppressed since it was added.
 */
export async function claimNotice(db: Database, subscriberId: string) {
  const [claimed] = await db
    .update(digestSubscribers)
    .set({ noticePending: false })
    .where(
      and(
        eq(digestSubscribers.subscriberId, subscriberId),
        eq(digestSubscribers.noticePending, true),
        eq(digestSubscribers.status, 'invited'),
        isNull(digestSubscribers.removedAt),
        sql`exists (select 1 from digests d join users u on u.user_id = d.user_id
                    where d.digest_id = ${digestSubscribers.digestId} and u.confirmed)`,
        sql`not exists (select 1 from mail_suppressions m join digests d on d.digest_id = ${digestSubscribers.digestId}
                        where m.email = ${digestSubscribers.email} and (m.owner_id is null or m.owner_id = d.user_id))`,
      ),
    )
    .returning({ subscriberId: digestSubscribers.subscriberId });
  if (!claimed) return undefined;
  const [row] = await db
    .select({
      email: digestSubscribers.email,
      token: digestSubscribers.token,
      digestId: digests.digestId,
      digestName: digests.name,
      shareToken: digests.shareToken,
      scheduleType: digests.scheduleType,
      ownerName: users.fullName,
      ownerEmail: users.email,
      ownerConfirmed: users.confirmed,
    })
    .from(digestSubscribers)
    .innerJoin(digests, eq(digests.digestId, digestSubscribers.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(eq(digestSubscribers.subscriberId, subscriberId));
  return row;
}

export async function releaseNotice(db: Database, subscriberId: string) {
  await db
    .update(digestSubscribers)
    .set({ noticePending: true })
    .where(eq(digestSubscribers.subscriberId, subscriberId));
}

/** Invitations of an account that wait for its address to be verified. */
export async function heldInvitationIds(db: Database, userId: string) {
  const rows = await db
    .select({ subscriberId: digestSubscribers.subscriberId })
    .from(digestSubscribers)
    .innerJoin(digests, eq(digests.digestId, digestSubscribers.digestId))
    .where(
      and(
        eq(digests.userId, userId),
        eq(digestSubscribers.noticePending, true),
        eq(digestSubscribers.status, 'invited'),
        isNull(digestSubscribers.removedAt),
      ),
    );
  return rows.map((row) => row.subscriberId);
}
