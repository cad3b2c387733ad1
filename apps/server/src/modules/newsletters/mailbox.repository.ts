import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { inboundMessages, newsletterSenders } from '#server/db/schema';

export type InboundMessageRow = typeof inboundMessages.$inferSelect;
export type NewsletterSenderRow = typeof newsletterSenders.$inferSelect;

/** A parsed, sanitised message ready to be stored in one user's mailbox. */
export interface InboundMessageInput {
  userId: string;
  /** The sender as the message names it: its List-Id, its From, its List-Unsubscribe targets. */
  sender: {
    address: string;
    listId: string | null;
    name: string;
    unsubscribeUrl: string | null;
    unsubscribeMailto: string | null;
    unsubscribeOneClick: boolean;
  };
  message: Omit<
    typeof inboundMessages.$inferInsert,
    'messageId' | 'userId' | 'senderId' | 'readAt' | 'resolvedAt'
  >;
}

/** `list:<id>` for a list (its From may change), else `from:<address>`. */
export function senderKeyOf(sender: { address: string; listId: string | null }): string {
  return sender.listId ? `list:${sender.listId.toLowerCase()}` : `from:${sender.address.toLowerCase()}`;
}

/**
 * Stores one message and keeps its sender's record (first seen, latest address and name, count), in one
 * transaction: the SMTP server answers 250 only after this returns. The same Message-ID twice for one
 * user stores nothing the second time (`stored: false`), so a sender's retry after a lost answer is one
 * message.
 */
export async function storeInboundMessage(
  db: Database,
  input: InboundMessageInput,
): Promise<{ stored: boolean; messageId: string; senderId: string }> {
  return db.transaction(async (tx) => {
    const { sender } = input;
    const [senderRow] = await tx
      .insert(newsletterSenders)
      .values({
        userId: input.userId,
        senderKey: senderKeyOf(sender),
        address: sender.address.toLowerCase(),
        listId: sender.listId?.toLowerCase() ?? null,
        name: sender.name,
        unsubscribeUrl: sender.unsubscribeUrl,
        unsubscribeMailto: sender.unsubscribeMailto,
        unsubscribeOneClick: sender.unsubscribeOneClick,
      })
      .onConflictDoUpdate({
        target: [newsletterSenders.userId, newsletterSenders.senderKey],
        set: {
          address: sql`excluded.address`,
          name: sql`excluded.name`,
          lastSeenAt: sql`now()`,
          // A later message without the header does not forget how to unsubscribe.
          unsubscribeUrl: sql`coalesce(excluded.unsubscribe_url, ${newsletterSenders.unsubscribeUrl})`,
          unsubscribeMailto: sql`coalesce(excluded.unsubscribe_mailto, ${newsletterSenders.unsubscribeMailto})`,
          unsubscribeOneClick: sql`case when excluded.unsubscribe_url is null then ${newsletterSenders.unsubscribeOneClick} else excluded.unsubscribe_one_click end`,
        },
      })
      .returning({ senderId: newsletterSenders.senderId });
    if (!senderRow) throw new Error('upsert into newsletter_senders returned no row');

    const [inserted] = await tx
      .insert(inboundMessages)
      .values({ ...input.message, userId: input.userId, senderId: senderRow.senderId })
      .onConflictDoNothing({ target: [inboundMessages.userId, inboundMessages.internetMessageId] })
      .returning({ messageId: inboundMessages.messageId });
    if (inserted) {
      await tx
        .update(newsletterSenders)
        .set({ messageCount: sql`${newsletterSenders.messageCount} + 1` })
        .where(eq(newsletterSenders.senderId, senderRow.senderId));
      return { stored: true, messageId: inserted.messageId, senderId: senderRow.senderId };
    }
    const [existing] = await tx
      .select({ messageId: inboundMessages.messageId, senderId: inboundMessages.senderId })
      .from(inboundMessages)
      .where(
        and(
          eq(inboundMessages.userId, input.userId),
          eq(inboundMessages.internetMessageId, input.message.internetMessageId),
        ),
      );
    if (!existing) throw new Error('a message that conflicted on its Message-ID is gone');
    return { stored: false, ...existing };
  });
}
