import { and, desc, eq, gt, inArray, lte, notExists, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestNewsletterItems, inboundMessages, issueRuns, newsletterSenders } from '#server/db/schema';
import type { NewsletterItems, NewsletterQuery, StoredNewsletter } from '#server/sources/connector';

/**
 * The newsletters digests carry (the Newsletters source kind): what a block may show, and the record of
 * what each issue carried so the next one never carries it again. Every read names the owner.
 */

/** A chosen sender still reaches digests unless the user muted or blocked it. */
const OUT_OF_DIGESTS = ['muted', 'blocked'];

/**
 * The previous issue of the digest: when its run started. A newsletter that arrived while that issue was
 * being built was not carried by it, and is after this instant, so the next issue carries it.
 */
const previousIssueStart = (digestId: string) =>
  sql`(select max(${issueRuns.createdAt}) from ${issueRuns} where ${issueRuns.digestId} = ${digestId} and ${issueRuns.status} = 'built')`;

function conditionsOf(query: NewsletterQuery): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [
    eq(inboundMessages.userId, query.userId),
    eq(inboundMessages.kind, 'newsletter'),
    query.senders === 'all'
      ? eq(newsletterSenders.state, 'included')
      : and(
          inArray(newsletterSenders.senderId, [...query.senders]),
          notInArray(newsletterSenders.state, OUT_OF_DIGESTS),
        ),
  ];
  if (query.digestId) {
    const { digestId } = query;
    conditions.push(
      notExists(
        sql`(select 1 from ${digestNewsletterItems} where ${digestNewsletterItems.digestId} = ${digestId} and ${digestNewsletterItems.messageId} = ${inboundMessages.messageId})`,
      ),
      query.receivedIn
        ? and(
            gt(inboundMessages.receivedAt, query.receivedIn.since),
            lte(inboundMessages.receivedAt, query.receivedIn.until),
          )
        : sql`${inboundMessages.receivedAt} > coalesce(${previousIssueStart(digestId)}, '-infinity'::timestamptz)`,
    );
  }
  return conditions;
}

/** The user's newsletters a block may show, newest first (see `NewsletterItems`). */
export async function latestNewsletters(db: Database, query: NewsletterQuery): Promise<StoredNewsletter[]> {
  if (query.senders !== 'all' && query.senders.length === 0) return [];
  const rows = await db
    .select({
      messageId: inboundMessages.messageId,
      subject: inboundMessages.subject,
      senderName: sql<string>`coalesce(${inboundMessages.fromName}, ${newsletterSenders.name})`,
      fromAddress: inboundMessages.fromAddress,
      receivedAt: inboundMessages.receivedAt,
      excerpt: inboundMessages.excerpt,
      // A whole issue may be 100 KB and more: read only for the layout that shows it.
      html: query.withBody ? inboundMessages.html : sql<string | null>`null`,
      text: query.withBody ? inboundMessages.text : sql<string>`''`,
    })
    .from(inboundMessages)
    .innerJoin(newsletterSenders, eq(newsletterSenders.senderId, inboundMessages.senderId))
    .where(and(...conditionsOf(query)))
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.messageId))
    .limit(query.limit);
  return rows;
}

/** The port the connectors are given (sources/connector.ts), on this database. */
export function createNewsletterItems(db: Database): NewsletterItems {
  return { latest: (query) => latestNewsletters(db, query) };
}

/** Which of these messages an issue of the digest has carried already. */
export async function carriedAlready(
  tx: Database,
  digestId: string,
  messageIds: readonly string[],
): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await tx
    .select({ messageId: digestNewsletterItems.messageId })
    .from(digestNewsletterItems)
    .where(
      and(
        eq(digestNewsletterItems.digestId, digestId),
        inArray(digestNewsletterItems.messageId, [...messageIds]),
      ),
    );
  return rows.map((row) => row.messageId);
}

/**
 * Records that an issue of `digestId` carried these messages, in the build's transaction, so the next issue
 * never carries them again (the build checked `carriedAlready` under the digest's lock first).
 */
export async function recordCarriedNewsletters(
  tx: Database,
  carried: { digestId: string; buildId: string | null; messageIds: readonly string[]; at: Date },
) {
  if (carried.messageIds.length === 0) return;
  await tx
    .insert(digestNewsletterItems)
    .values(
      [...new Set(carried.messageIds)].map((messageId) => ({
        digestId: carried.digestId,
        messageId,
        buildId: carried.buildId,
        carriedAt: carried.at,
      })),
    )
    .onConflictDoNothing();
}
