import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '#server/db/client';

/** One item a source of a digest carried: the source's key and the item's identity (both hashed). */
export interface SentItemKey {
  sourceKey: string;
  identity: string;
}

const pairOf = (key: SentItemKey) => `${key.sourceKey} ${key.identity}`;

/**
 * The keys as two array parameters (`unnest($1::text[], $2::text[])` reads them back as pairs): an issue
 * carries a hundred items and more, and two parameters cost the driver and the server far less than one
 * per column and item.
 */
const asArrays = (keys: readonly SentItemKey[]) => ({
  sourceKeys: sql.param(keys.map((key) => key.sourceKey)),
  identities: sql.param(keys.map((key) => key.identity)),
});

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
  const { sourceKeys, identities } = asArrays(keys);
  const rows = await rowsOf<{ source_key: string; identity: string }>(
    db,
    sql`
    select source_key, identity from digest_sent_items
    where digest_id = ${digestId} and first_sent_at > ${since.toISOString()}::timestamptz
      and (source_key, identity) in (select * from unnest(${sourceKeys}::text[], ${identities}::text[]))`,
  );
  return new Set(rows.map((row) => pairOf({ sourceKey: row.source_key, identity: row.identity })));
}

/** What an issue carried, for `insertSentItems`: the keys, when, and since when a key counts as sent. */
export interface SentItems {
  digestId: string;
  keys: readonly SentItemKey[];
  at: Date;
  since: Date;
}

/** The keys without repeats: each is one row, and the caller compares the rows stored with this count. */
export const uniqueKeys = (keys: readonly SentItemKey[]) => [
  ...new Map(keys.map((key) => [pairOf(key), key])).values(),
];

/**
 * The insert recording what an issue carried, as a part of one statement (its `returning 1` gives one row
 * per key stored), written only when `condition` holds. A key another issue recorded after `since` (a "Send
 * latest digest" built at the same time) is left as it was and gives no row, so fewer rows than
 * `uniqueKeys` means the caller rolls back and leaves those items out. A row older than `since` (not pruned
 * yet) is the same item coming back: it is renewed.
 */
export function insertSentItems(sent: SentItems, condition: SQL = sql`true`): SQL {
  const { sourceKeys, identities } = asArrays(uniqueKeys(sent.keys));
  return sql`
      insert into digest_sent_items (digest_id, source_key, identity, first_sent_at)
      select ${sent.digestId}, k.source_key, k.identity, ${sent.at.toISOString()}::timestamptz
      from unnest(${sourceKeys}::text[], ${identities}::text[]) as k(source_key, identity)
      where ${condition}
      on conflict (digest_id, source_key, identity) do update set first_sent_at = excluded.first_sent_at
      where digest_sent_items.first_sent_at <= ${sent.since.toISOString()}::timestamptz
      returning 1`;
}
