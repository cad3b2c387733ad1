import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { digestBuilds, digestSubscribers, digests } from './digests';

export type { RunStatus } from '@digest/contracts';

/**
 * One slot of a digest's schedule that the scheduler took (or one "Send latest digest"), and what became
 * of it. The unique (digest, slot) pair is what makes a slot build at most once, whatever the number of
 * scheduler processes; skipped and empty slots stay recorded with their reason.
 */
export const issueRuns = pgTable(
  'issue_runs',
  {
    runId: uuid('run_id').primaryKey().defaultRandom(),
    digestId: uuid('digest_id')
      .notNull()
      .references(() => digests.digestId, { onDelete: 'cascade' }),
    /** The scheduled instant (the request time for a manual run). */
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    /**
     * `schedule`, `manual` ("Send latest digest") or `catch_up` (a resume's "While you were away" issue: its
     * slot is the resume, `catch_up_since` the pause, and its sources read that window).
     */
    trigger: text('trigger').notNull().default('schedule'),
    catchUpSince: timestamp('catch_up_since', { withTimezone: true }),
    status: text('status').notNull().default('queued'),
    /** Why a run was skipped, empty or failed. */
    reason: text('reason'),
    buildId: uuid('build_id').references(() => digestBuilds.buildId, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('issue_runs_digest_slot_unique').on(table.digestId, table.slot),
    // Every delivery asks whether its issue was a catch-up, and deleting an issue sets its runs' build_id
    // to null: without it each of those read the whole table (every run ever recorded).
    index('issue_runs_build_id_idx').on(table.buildId),
    check('issue_runs_trigger_check', sql`${table.trigger} in ('schedule', 'manual', 'catch_up')`),
    check(
      'issue_runs_catch_up_check',
      sql`(${table.trigger} = 'catch_up') = (${table.catchUpSince} is not null)`,
    ),
    check(
      'issue_runs_status_check',
      sql`${table.status} in ('queued', 'built', 'skipped', 'empty', 'failed')`,
    ),
  ],
);

export const DELIVERY_STATES = [
  'held',
  'pending',
  'sending',
  'sent',
  'failed',
  'uncertain',
  'cancelled',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * One e-mail of one issue to one recipient (docs/design.md §6): `pending → sending → sent | failed`. A row left in
 * `sending` by a worker that died mid-send is sent again if it died before the message's final dot
 * (`before_final_dot`: the SMTP server discarded it), and becomes `uncertain` otherwise (the server may or
 * may not have taken it): it is listed, never sent twice. `cancelled`: the subscriber left before it was sent (or a newer
 * issue replaced a held one, or the account's daily recipient cap was reached; `last_error` says which).
 * `held`: the owner's address is not verified yet; nothing is mailed from the account until it is
 * (releaseHeldMailJob then sends the newest held issue).
 */
export const deliveries = pgTable(
  'deliveries',
  {
    deliveryId: uuid('delivery_id').primaryKey().defaultRandom(),
    buildId: uuid('build_id')
      .notNull()
      .references(() => digestBuilds.buildId, { onDelete: 'cascade' }),
    digestId: uuid('digest_id')
      .notNull()
      .references(() => digests.digestId, { onDelete: 'cascade' }),
    /** Trimmed and lower-cased, like subscriber e-mails. */
    recipient: text('recipient').notNull(),
    /** `owner` or `subscriber`. */
    kind: text('kind').notNull(),
    subscriberId: uuid('subscriber_id').references(() => digestSubscribers.subscriberId, {
      onDelete: 'set null',
    }),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** `<deliveryId@mail domain>`, the same on every attempt. */
    messageId: text('message_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the current attempt claimed the row. */
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    /**
     * True from the claim until the attempt (the one whose number is `attempts`) lets the message's final
     * dot go: a `sending` row still true has reached no SMTP server and is safely sent again. False, the
     * default, for everything else, including rows claimed before this column existed: may have arrived.
     */
    beforeFinalDot: boolean('before_final_dot').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * 128 random bits in lower-case hex, the mail's envelope sender `<local>+b-<token>@<domain>` (VERP): a
     * bounce or complaint sent back to it names this delivery. Random, not the delivery id, so nobody can
     * forge a bounce for someone else's delivery. The database makes it, so every insert has one.
     */
    bounceToken: text('bounce_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /** When the first bounce (DSN) or complaint (ARF) about this delivery arrived. */
    bouncedAt: timestamp('bounced_at', { withTimezone: true }),
    /** `bounce` or `complaint`; a complaint may follow a bounce and replaces it, never the reverse. */
    bounceKind: text('bounce_kind'),
    /** The receiver's short reason (a DSN's status and diagnostic code), at most 500 characters. */
    bounceDiagnostic: text('bounce_diagnostic'),
  },
  (table) => [
    uniqueIndex('deliveries_build_recipient_unique').on(table.buildId, table.recipient),
    uniqueIndex('deliveries_bounce_token_unique').on(table.bounceToken),
    index('deliveries_digest_idx').on(table.digestId, table.createdAt),
    index('deliveries_state_idx')
      .on(table.state)
      .where(sql`${table.state} in ('pending', 'sending', 'uncertain')`),
    check('deliveries_kind_check', sql`${table.kind} in ('owner', 'subscriber')`),
    check(
      'deliveries_bounce_check',
      sql`(${table.bounceKind} is null and ${table.bouncedAt} is null) or (${table.bounceKind} in ('bounce', 'complaint') and ${table.bouncedAt} is not null)`,
    ),
    check(
      'deliveries_state_check',
      sql`${table.state} in ('held', 'pending', 'sending', 'sent', 'failed', 'uncertain', 'cancelled')`,
    ),
  ],
);

/** How long a digest remembers an item it sent: an item older than this may come again (a re-post). */
export const SENT_ITEMS_KEPT_DAYS = 90;

/**
 * The items of list sources each digest's issues carried (docs/product.md §3 "Only new items"): a later
 * issue leaves them out of the source that carried them. `source_key` is a SHA-256 of the kind and the
 * settings that choose the items (a feed's address, a subreddit), `identity` one of the item's identity
 * (guid, else normalised link, else title and date), both base64url. Rows older than
 * SENT_ITEMS_KEPT_DAYS are deleted by housekeeping.
 */
export const digestSentItems = pgTable(
  'digest_sent_items',
  {
    // Deleted with their digest by a trigger (migration 0023), not a foreign key: the key's check of every
    // inserted row was 40 % of recording an issue's items (bench/README.md "Issue 15, fifth stop"), and the
    // build that records them holds its digest's row locked and stores an issue that has that key.
    digestId: uuid('digest_id').notNull(),
    sourceKey: text('source_key').notNull(),
    identity: text('identity').notNull(),
    firstSentAt: timestamp('first_sent_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.digestId, table.sourceKey, table.identity] }),
    index('digest_sent_items_first_sent_idx').on(table.firstSentAt),
  ],
);
