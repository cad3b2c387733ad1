import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '#server/db/client';
import { insertSentItems, type SentItems, uniqueKeys } from './sent-items.repository';

/**
 * Records what an issue carried on its own, as the build does with its issue: whether every key was new.
 * For the tests of the "Every item once" rule and of stored data.
 */
export async function recordSentItems(tx: Database, sent: SentItems): Promise<boolean> {
  const unique = uniqueKeys(sent.keys);
  if (unique.length === 0) return true;
  const rows = await rowsOf<{ stored: number }>(
    tx,
    sql`with stored as (${insertSentItems(sent)}) select count(*)::int as stored from stored`,
  );
  return Number(rows[0]?.stored) === unique.length;
}
