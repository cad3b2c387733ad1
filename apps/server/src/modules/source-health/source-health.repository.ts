import type { Source } from '@digest/contracts';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestSentItems, digests, sourceHealth, users } from '#server/db/schema';

export type SourceHealthRow = typeof sourceHealth.$inferSelect;

/** The records of a digest, locked for the transaction that changes them (one issue or preview at a time). */
export function lockedRecords(tx: Database, digestId: string) {
  return tx.select().from(sourceHealth).where(eq(sourceHealth.digestId, digestId)).for('update');
}

export function recordsOf(db: Database, digestId: string) {
  return db.select().from(sourceHealth).where(eq(sourceHealth.digestId, digestId));
}

/** Writes the records as given (one statement): new ones are inserted, the others replaced. */
export async function saveRecords(tx: Database, rows: SourceHealthRow[]) {
  if (rows.length === 0) return;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  await tx
    .insert(sourceHealth)
    .values(rows)
    .onConflictDoUpdate({
      target: [sourceHealth.digestId, sourceHealth.sourceKey],
      set: {
        lastSuccessAt: excluded('last_success_at'),
        lastErrorAt: excluded('last_error_at'),
        lastErrorKind: excluded('last_error_kind'),
        lastErrorDetail: excluded('last_error_detail'),
        lastErrorStatus: excluded('last_error_status'),
        consecutiveFailures: excluded('consecutive_failures'),
        retryAt: excluded('retry_at'),
        alertedAt: excluded('alerted_at'),
        redirectTo: excluded('redirect_to'),
        redirectSince: excluded('redirect_since'),
        movedTo: excluded('moved_to'),
        movedAt: excluded('moved_at'),
      },
    });
}

/**
 * After reads that all went well, none of them answering a redirect: each of these records that still says
 * something (a failure, a streak, a wait, an alert sent, a redirect seen) becomes a success at `now`, as a
 * full write would make it; a record that already says all is well is left as it was. One statement, no
 * lock of the digest's row: it changes no source and queues no alert.
 */
export async function recordSuccesses(db: Database, digestId: string, keys: string[], now: Date) {
  await db.execute(sql`
    update source_health set last_success_at = ${now.toISOString()}::timestamptz, consecutive_failures = 0,
      retry_at = null, alerted_at = null, redirect_to = null, redirect_since = null
    where digest_id = ${digestId} and source_key = any(${sql.param(keys)}::text[])
      and (consecutive_failures <> 0 or retry_at is not null or alerted_at is not null
        or redirect_to is not null or redirect_since is not null
        or (last_error_at is not null and (last_success_at is null or last_error_at > last_success_at)))`);
}

export async function deleteRecords(tx: Database, digestId: string, keys: string[]) {
  if (keys.length === 0) return;
  await tx
    .delete(sourceHealth)
    .where(and(eq(sourceHealth.digestId, digestId), inArray(sourceHealth.sourceKey, keys)));
}

/** Forgets the records of sources the digest no longer has. */
export async function deleteRecordsNotIn(db: Database, digestId: string, keys: string[]) {
  await db
    .delete(sourceHealth)
    .where(
      keys.length === 0
        ? eq(sourceHealth.digestId, digestId)
        : and(eq(sourceHealth.digestId, digestId), notInArray(sourceHealth.sourceKey, keys)),
    );
}

/** The digest's sources, its row locked: a feed's move writes them back in the same transaction. */
export async function lockedSources(tx: Database, digestId: string): Promise<Source[] | undefined> {
  const [row] = await tx
    .select({ sources: digests.sources })
    .from(digests)
    .where(eq(digests.digestId, digestId))
    .for('update');
  return row?.sources as Source[] | undefined;
}

export async function saveSources(tx: Database, digestId: string, sources: Source[]) {
  await tx.update(digests).set({ sources }).where(eq(digests.digestId, digestId));
}

/**
 * The items a moved source's issues carried, under its new key: the feed at its new address is the same
 * feed, so "Only new items" keeps leaving out what it already sent. Items the new key has already stay.
 */
export async function moveSentItems(tx: Database, digestId: string, from: string, to: string) {
  await tx.execute(sql`
    update ${digestSentItems} set source_key = ${to}
    where digest_id = ${digestId} and source_key = ${from}
      and not exists (
        select 1 from digest_sent_items other
        where other.digest_id = ${digestId} and other.source_key = ${to}
          and other.identity = digest_sent_items.identity
      )`);
}

/** The owner's digest with its sources (owner in the query), for the health route. */
export async function findOwnedSources(db: Database, userId: string, digestId: string) {
  const [row] = await db
    .select({ sources: digests.sources })
    .from(digests)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)));
  return row ? (row.sources as Source[]) : undefined;
}

/** What the alert mail needs: the digest, its owner's address, and the source's record. */
export async function findAlert(db: Database, digestId: string, sourceKey: string) {
  const [row] = await db
    .select({
      digestName: digests.name,
      sources: digests.sources,
      ownerEmail: users.email,
      ownerConfirmed: users.confirmed,
      record: sourceHealth,
    })
    .from(sourceHealth)
    .innerJoin(digests, eq(digests.digestId, sourceHealth.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(and(eq(sourceHealth.digestId, digestId), eq(sourceHealth.sourceKey, sourceKey)));
  return row ? { ...row, sources: row.sources as Source[] } : undefined;
}
