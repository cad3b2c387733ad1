import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { digests } from './digests';

/**
 * Issue 17 "Source health": how the reads of each source of a digest went, keyed by the source's identity
 * in the digest (`sourceHealthKey` of @digest/contracts: its kind and what it reads). Written by issue
 * builds and by the builder's previews of the digest's sources, never by fetches of its own; removed with
 * the digest, and a source's record with the source (a change of the digest's sources prunes them).
 */
export const sourceHealth = pgTable(
  'source_health',
  {
    digestId: uuid('digest_id')
      .notNull()
      .references(() => digests.digestId, { onDelete: 'cascade' }),
    sourceKey: text('source_key').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    /** The SourceError kind of the last failure (SOURCE_ERROR_KINDS), what the fix is derived from. */
    lastErrorKind: text('last_error_kind'),
    /** The last failure as its block said it: the provider's words. */
    lastErrorDetail: text('last_error_detail'),
    /** The HTTP status the provider answered with it, when it answered. */
    lastErrorStatus: integer('last_error_status'),
    /** Issues in a row whose read of this source failed (previews do not count); 0 once it recovers. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** Until when the provider asked to wait (its Retry-After), from the last failure. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** When the owner was mailed about the current failing streak; cleared when the source recovers. */
    alertedAt: timestamp('alerted_at', { withTimezone: true }),
    /** A permanent redirect (301/308) the feed answers, and when this target was first seen. */
    redirectTo: text('redirect_to'),
    redirectSince: timestamp('redirect_since', { withTimezone: true }),
    /** Once the feed's address was changed to where it moved: the address and when (the owner's note). */
    movedTo: text('moved_to'),
    movedAt: timestamp('moved_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.digestId, table.sourceKey] })],
);
