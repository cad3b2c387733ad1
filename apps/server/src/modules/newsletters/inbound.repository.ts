import { and, eq, gte, or, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { inboundMessages, newsletterSenders, releasedUsernames, users } from '#server/db/schema';
import { usernameReservationCutoff } from '#server/modules/users/users.rules';

/**
 * The account whose mailbox `username` (any case) names: the account holding it, else the account that gave
 * it up less than USERNAME_RESERVATION_DAYS ago. Nobody else can take a reserved name, and its previous
 * owner keeps receiving what was subscribed under the old address until the reservation ends; after that
 * the address answers 550 until someone takes the name.
 */
export async function findMailboxOwner(
  db: Database,
  username: string,
  now: Date,
): Promise<string | undefined> {
  const [holder] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  if (holder) return holder.userId;
  const [previous] = await db
    .select({ userId: releasedUsernames.userId })
    .from(releasedUsernames)
    .where(
      and(
        eq(releasedUsernames.usernameLower, username.toLowerCase()),
        gte(releasedUsernames.releasedAt, usernameReservationCutoff(now)),
      ),
    );
  return previous?.userId;
}

/** Bytes the user's stored messages take, counted against NEWSLETTER_QUOTA_MB. */
export async function mailboxUsedBytes(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${inboundMessages.sizeBytes}), 0)` })
    .from(inboundMessages)
    .where(eq(inboundMessages.userId, userId));
  return Number(row?.used ?? 0);
}

/**
 * Whether the user blocked the sender that `address` or `listId` names: a blocked list by its List-Id, or
 * a blocked sender whose latest From address this is (a list is blocked by its From as well, so its mail is
 * refused at RCPT already, before its content is read).
 */
export async function isSenderBlocked(
  db: Database,
  userId: string,
  sender: { address: string | null; listId: string | null },
): Promise<boolean> {
  const matches = [
    sender.address ? eq(newsletterSenders.address, sender.address.toLowerCase()) : undefined,
    sender.listId ? eq(newsletterSenders.listId, sender.listId.toLowerCase()) : undefined,
  ].filter((condition) => condition !== undefined);
  if (matches.length === 0) return false;
  const [row] = await db
    .select({ senderId: newsletterSenders.senderId })
    .from(newsletterSenders)
    .where(and(eq(newsletterSenders.userId, userId), eq(newsletterSenders.state, 'blocked'), or(...matches)))
    .limit(1);
  return row !== undefined;
}
