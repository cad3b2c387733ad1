import { and, desc, eq, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { inboundMessages, newsletterSenders, users } from '#server/db/schema';

/**
 * The mailbox as its owner reads and changes it. Every query names the owner (`user_id`), so another
 * user's message or sender is not found and nothing of theirs changes.
 */

/** A message as lists show it, with its sender's name. */
const summaryColumns = {
  messageId: inboundMessages.messageId,
  senderId: inboundMessages.senderId,
  senderName: sql<string>`coalesce(${inboundMessages.fromName}, ${newsletterSenders.name})`,
  fromAddress: inboundMessages.fromAddress,
  subject: inboundMessages.subject,
  excerpt: inboundMessages.excerpt,
  receivedAt: inboundMessages.receivedAt,
  readAt: inboundMessages.readAt,
  kind: inboundMessages.kind,
  confirmUrl: inboundMessages.confirmUrl,
  forwardingCode: inboundMessages.forwardingCode,
  resolvedAt: inboundMessages.resolvedAt,
  // Full precision (microseconds) for the keyset cursor: a Date would round it to milliseconds.
  receivedAtText: sql<string>`${inboundMessages.receivedAt}::text`,
};

export type MessageSummaryRow = {
  messageId: string;
  senderId: string;
  senderName: string;
  fromAddress: string;
  subject: string;
  excerpt: string;
  receivedAt: Date;
  readAt: Date | null;
  kind: string;
  confirmUrl: string | null;
  forwardingCode: string | null;
  resolvedAt: Date | null;
  receivedAtText: string;
};

const PINNED_KINDS = sql`${inboundMessages.kind} in ('confirmation', 'forwarding_code', 'reply_to_confirm')`;

/** The user's username (their address is `username@MAIL_DOMAIN`), or undefined when the account is gone. */
export async function findUsername(db: Database, userId: string) {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.userId, userId));
  return row;
}

/** Bytes stored (against the quota) and unread messages. */
export async function mailboxTotals(db: Database, userId: string) {
  const [row] = await db
    .select({
      usedBytes: sql<string>`coalesce(sum(${inboundMessages.sizeBytes}), 0)::text`,
      unreadCount: sql<number>`(count(*) filter (where ${inboundMessages.readAt} is null))::int`,
    })
    .from(inboundMessages)
    .where(eq(inboundMessages.userId, userId));
  return { usedBytes: Number(row?.usedBytes ?? 0), unreadCount: row?.unreadCount ?? 0 };
}

/** The sender columns with how many of its messages are stored and unread. */
const senderColumns = {
  sender: newsletterSenders,
  storedCount: sql<number>`(count(${inboundMessages.messageId}))::int`,
  unreadCount: sql<number>`(count(${inboundMessages.messageId}) filter (where ${inboundMessages.readAt} is null))::int`,
};

export type SenderWithCountsRow = {
  sender: typeof newsletterSenders.$inferSelect;
  storedCount: number;
  unreadCount: number;
};

function sendersWithCounts(db: Database, where: SQL | undefined) {
  return db
    .select(senderColumns)
    .from(newsletterSenders)
    .leftJoin(inboundMessages, eq(inboundMessages.senderId, newsletterSenders.senderId))
    .where(where)
    .groupBy(newsletterSenders.senderId);
}

/** Every sender of the user, latest first. */
export function listSenders(db: Database, userId: string): Promise<SenderWithCountsRow[]> {
  return sendersWithCounts(db, eq(newsletterSenders.userId, userId)).orderBy(
    desc(newsletterSenders.lastSeenAt),
    desc(newsletterSenders.senderId),
  );
}

export async function findSender(
  db: Database,
  userId: string,
  senderId: string,
): Promise<SenderWithCountsRow | undefined> {
  const [row] = await sendersWithCounts(
    db,
    and(eq(newsletterSenders.userId, userId), eq(newsletterSenders.senderId, senderId)),
  );
  return row;
}

/** Unresolved confirmations, forwarding codes and reply-to-confirm messages, newest first. */
export function listPinned(db: Database, userId: string, limit: number): Promise<MessageSummaryRow[]> {
  return db
    .select(summaryColumns)
    .from(inboundMessages)
    .innerJoin(newsletterSenders, eq(newsletterSenders.senderId, inboundMessages.senderId))
    .where(and(eq(inboundMessages.userId, userId), PINNED_KINDS, isNull(inboundMessages.resolvedAt)))
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.messageId))
    .limit(limit);
}

/** `%`, `_` and `\` match themselves: the user searches for words, not patterns. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

export interface MessageFilter {
  q?: string;
  senderId?: string;
  unread?: boolean;
  /** The last message of the previous page: the page starts after it. */
  after?: { receivedAtText: string; messageId: string };
  limit: number;
}

/** Messages newest first, by keyset: a message arriving meanwhile never shifts the next page. */
export function listMessages(
  db: Database,
  userId: string,
  filter: MessageFilter,
): Promise<MessageSummaryRow[]> {
  const conditions: (SQL | undefined)[] = [eq(inboundMessages.userId, userId)];
  if (filter.senderId) conditions.push(eq(inboundMessages.senderId, filter.senderId));
  if (filter.unread !== undefined) {
    conditions.push(filter.unread ? isNull(inboundMessages.readAt) : isNotNull(inboundMessages.readAt));
  }
  if (filter.q) {
    const pattern = `%${likeEscaped(filter.q)}%`;
    conditions.push(
      or(
        sql`${inboundMessages.subject} ilike ${pattern}`,
        sql`${inboundMessages.fromAddress} ilike ${pattern}`,
        sql`${inboundMessages.fromName} ilike ${pattern}`,
        sql`${newsletterSenders.name} ilike ${pattern}`,
      ),
    );
  }
  if (filter.after) {
    conditions.push(
      sql`(${inboundMessages.receivedAt}, ${inboundMessages.messageId}) < (${filter.after.receivedAtText}::timestamptz, ${filter.after.messageId}::uuid)`,
    );
  }
  return db
    .select(summaryColumns)
    .from(inboundMessages)
    .innerJoin(newsletterSenders, eq(newsletterSenders.senderId, inboundMessages.senderId))
    .where(and(...conditions))
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.messageId))
    .limit(filter.limit);
}

/** One message with everything the reader shows. */
export async function findMessage(db: Database, userId: string, messageId: string) {
  const [row] = await db
    .select({ summary: summaryColumns, message: inboundMessages })
    .from(inboundMessages)
    .innerJoin(newsletterSenders, eq(newsletterSenders.senderId, inboundMessages.senderId))
    .where(and(eq(inboundMessages.userId, userId), eq(inboundMessages.messageId, messageId)));
  return row;
}

/** The stored sanitised HTML of a message, with its owner (the signed link names both). */
export async function findMessageHtml(db: Database, messageId: string) {
  const [row] = await db
    .select({ userId: inboundMessages.userId, html: inboundMessages.html })
    .from(inboundMessages)
    .where(eq(inboundMessages.messageId, messageId));
  return row;
}

/** Read (now, unless it was read before) or unread; false when the message is not the user's. */
export async function setMessageRead(
  db: Database,
  userId: string,
  messageId: string,
  read: boolean,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(inboundMessages)
    .set({
      readAt: read ? sql`coalesce(${inboundMessages.readAt}, ${now.toISOString()}::timestamptz)` : null,
    })
    .where(and(eq(inboundMessages.userId, userId), eq(inboundMessages.messageId, messageId)))
    .returning({ messageId: inboundMessages.messageId });
  return rows.length > 0;
}

/**
 * Resolves a pinned message (dismissed, confirmed, replied to) once: answers whether this call resolved
 * it, so two replies racing send one mail.
 */
export async function resolvePinnedMessage(
  db: Database,
  userId: string,
  messageId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(inboundMessages)
    .set({ resolvedAt: now })
    .where(
      and(
        eq(inboundMessages.userId, userId),
        eq(inboundMessages.messageId, messageId),
        ne(inboundMessages.kind, 'newsletter'),
        isNull(inboundMessages.resolvedAt),
      ),
    )
    .returning({ messageId: inboundMessages.messageId });
  return rows.length > 0;
}

/** Undoes `resolvePinnedMessage` when what it was resolved for failed (the reply was not sent). */
export async function unresolveMessage(db: Database, userId: string, messageId: string) {
  await db
    .update(inboundMessages)
    .set({ resolvedAt: null })
    .where(and(eq(inboundMessages.userId, userId), eq(inboundMessages.messageId, messageId)));
}

export async function deleteMessage(db: Database, userId: string, messageId: string): Promise<boolean> {
  const rows = await db
    .delete(inboundMessages)
    .where(and(eq(inboundMessages.userId, userId), eq(inboundMessages.messageId, messageId)))
    .returning({ messageId: inboundMessages.messageId });
  return rows.length > 0;
}

export async function setSenderState(
  db: Database,
  userId: string,
  senderId: string,
  state: 'included' | 'muted' | 'blocked' | 'unsubscribed',
): Promise<boolean> {
  const rows = await db
    .update(newsletterSenders)
    .set({ state })
    .where(and(eq(newsletterSenders.userId, userId), eq(newsletterSenders.senderId, senderId)))
    .returning({ senderId: newsletterSenders.senderId });
  return rows.length > 0;
}

/**
 * "Delete all": every stored message of the sender goes; the sender's row stays, so a blocked sender
 * stays blocked, a muted one muted, and digests that chose it keep choosing it when it writes again.
 */
export async function deleteSenderMessages(db: Database, userId: string, senderId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [sender] = await tx
      .select({ senderId: newsletterSenders.senderId })
      .from(newsletterSenders)
      .where(and(eq(newsletterSenders.userId, userId), eq(newsletterSenders.senderId, senderId)));
    if (!sender) return false;
    await tx
      .delete(inboundMessages)
      .where(and(eq(inboundMessages.userId, userId), eq(inboundMessages.senderId, senderId)));
    return true;
  });
}

/**
 * The outcome of the user's last Unsubscribe (`unsubscribed_at` is when it ran). Once sent, the sender is
 * `unsubscribed`, unless the user blocked it: a blocked sender stays refused at the door.
 */
export async function recordUnsubscribe(
  db: Database,
  userId: string,
  senderId: string,
  outcome: { outcome: 'sent' | 'failed'; detail: string | null; at: Date },
) {
  await db
    .update(newsletterSenders)
    .set({
      unsubscribeOutcome: outcome.outcome,
      unsubscribeDetail: outcome.detail,
      unsubscribedAt: outcome.at,
      ...(outcome.outcome === 'sent'
        ? {
            state: sql`case when ${newsletterSenders.state} = 'blocked' then 'blocked' else 'unsubscribed' end`,
          }
        : {}),
    })
    .where(and(eq(newsletterSenders.userId, userId), eq(newsletterSenders.senderId, senderId)));
}
