import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from './columns';

/**
 * The second tier of the content cache (docs/design.md §6): provider answers shared by every process and kept
 * across restarts. A row is either content (fresh until `expires_at`, then kept a while so its validators
 * allow a conditional GET) or a remembered 429/503 (`retry_after_until` set). It holds no request
 * headers and no key in clear: the key names the URL and a hash of the credentials sent.
 */
export const sourceCache = pgTable(
  'source_cache',
  {
    /** sha256 (hex) of the normalised cache key. */
    keyHash: text('key_hash').primaryKey(),
    status: integer('status').notNull(),
    /** The final URL when a redirect changed it; null when it is the URL requested. */
    url: text('url'),
    /**
     * Where the request's permanent redirects (301/308 from its first hop on) led, when it answered one: a
     * feed that moved, so its digests can follow it (issue 17).
     */
    movedTo: text('moved_to'),
    /** Only the headers the cache and the connectors read (content type, validators, lifetime, Retry-After). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    body: bytea('body').notNull(),
    /** When the provider last gave or confirmed (304) this answer. */
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    /** Fresh until then; for a remembered Retry-After, the end of its window. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    retryAfterUntil: timestamp('retry_after_until', { withTimezone: true }),
    /** Bytes of body and headers, for the table's size bound. */
    size: integer('size').notNull(),
  },
  (table) => [
    index('source_cache_expires_idx').on(table.expiresAt),
    index('source_cache_fetched_idx').on(table.fetchedAt),
  ],
);
