import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestSentItems } from '#server/db/schema';

/** One item a source of a digest carried: the source's key and the item's identity (both hashed). */
export interface SentItemKey {
  sourceKey: string;
  identity: string;
}

const pairOf = (key: SentItemKey) => `${key.sourceKey} ${key.identity}`;

/**
 * Which of `keys` an issue of the digest carried since `since` (one query per issue): answered as
 * "sourceKey identity" pairs. Older rows, not yet pruned, no longer count.
 */
export async function sentSince(
  db: Database,
  digestId: string,
  keys: readonly SentItemKey[],
  since: Date,
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ sourceKey: digestSentItems.sourceKey, identity: digestSentItems.identity })
    .from(digestSentItems)
    .where(
      and(
        eq(digestSentItems.digestId, digestId),
        inArray(digestSentItems.identity, [...new Set(keys.map((key) => key.identity))]),
        gt(digestSentItems.firstSentAt, since),
      ),
    );
  const asked = new Set(keys.map(pairOf));
  return new Set(rows.map(pairOf).filter((pair) => asked.has(pair)));
}

/**
 * Records what an issue carried, in the build's transaction and in one statement. Answers whether every
 * key was new: a key another issue recorded after `since` (a "Send latest digest" built at the same time)
 * is left as it was and makes the answer false, so the caller rolls back and leaves those items out. A row
 * older than `since` (not pruned yet) is the same item coming back: it is renewed.
 */
export async function recordSentItems(
  tx: Database,
  sent: { digestId: string; keys: readonly SentItemKey[]; at: Date; since: Date },
): Promise<boolean> {
  const unique = [...new Map(sent.keys.map((key) => [pairOf(key), key])).values()];
  if (unique.length === 0) return true;
  const stored = await tx
    .insert(digestSentItems)
    .values(unique.map((key) => ({ digestId: sent.digestId, ...key, firstSentAt: sent.at })))
    .onConflictDoUpdate({
      target: [digestSentItems.digestId, digestSentItems.sourceKey, digestSentItems.identity],
      set: { firstSentAt: sql`excluded.first_sent_at` },
      setWhere: lte(digestSentItems.firstSentAt, sent.since),
    })
    .returning({ identity: digestSentItems.identity });
  return stored.length === unique.length;
}
