import type { Source } from '@digest/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A digest (docs/product.md §3): its owner, name, schedule and ordered sources. `sources` holds the settings as
 * the contracts validated them (defaults filled, no icons), in the order of the digest.
 */
export const digests = pgTable(
  'digests',
  {
    digestId: uuid('digest_id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    scheduleType: text('schedule_type').notNull().default('daily'),
    /** Local time of day, `HH:mm` (24-hour), in the owner's time zone. */
    time: text('time').notNull().default('07:00'),
    /** 0 (Sunday) – 6 (Saturday), for weekly digests. */
    weekDay: integer('week_day').notNull().default(1),
    /** 1–31, for monthly digests (29–31 run on the last day of shorter months). */
    monthDay: integer('month_day').notNull().default(1),
    /** Issues older than this many months are deleted by housekeeping (a year unless the owner chose). */
    issueRetentionMonths: integer('issue_retention_months').notNull().default(12),
    sources: jsonb('sources').$type<Source[]>().notNull(),
    /** An issue that would carry no new item is not sent (the run is recorded `empty` with the reason). */
    sendOnlyWhenNew: boolean('send_only_when_new').notNull().default(false),
    /** An issue in which fewer sources have something to say is skipped (recorded `skipped`); 0 is off. */
    minSourcesToSend: integer('min_sources_to_send').notNull().default(0),
    /** When the scheduler should build the next issue; null while paused or not yet computed. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /**
     * When the owner paused it (null while active): a resume after more than its period may send one
     * "While you were away" issue of this window. Digests paused before 0019 got their `updated_at`.
     */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** docs/design.md §10: `private` (the default) or `public`, turned on by the owner. */
    visibility: text('visibility').notNull().default('private'),
    /** The random token of the public page's address while public (a new one each time it is turned on). */
    shareToken: text('share_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('digests_share_token_unique').on(table.shareToken),
    check('digests_visibility_check', sql`${table.visibility} in ('private', 'public')`),
    check(
      'digests_share_token_check',
      sql`(${table.visibility} = 'public') = (${table.shareToken} is not null)`,
    ),
    index('digests_user_created_idx').on(table.userId, table.createdAt),
    index('digests_next_run_idx').on(table.nextRunAt),
    check('digests_schedule_type_check', sql`${table.scheduleType} in ('daily', 'weekly', 'monthly')`),
    check('digests_time_check', sql`${table.time} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('digests_week_day_check', sql`${table.weekDay} between 0 and 6`),
    check('digests_month_day_check', sql`${table.monthDay} between 1 and 31`),
    check('digests_issue_retention_months_check', sql`${table.issueRetentionMonths} in (1, 3, 6, 12, 24)`),
  ],
);

/** A digest being built (docs/product.md §4 Drafts): a name and 0–20 sources, no schedule. */
export const digestDrafts = pgTable(
  'digest_drafts',
  {
    draftId: uuid('draft_id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    sources: jsonb('sources').$type<Source[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('digest_drafts_user_created_idx').on(table.userId, table.createdAt)],
);

export const SUBSCRIBER_STATES = ['invited', 'subscribed', 'declined', 'unsubscribed', 'bouncing'] as const;

/**
 * A friend a digest is shared with (double opt-in, docs/design.md §10): `invited` until they accept the
 * invitation (`subscribed`) or decline it; `unsubscribed` after they left; `bouncing` when their server
 * refused mail for good. Only `subscribed` friends get issues. The row outlives all of these and a removal
 * by the owner (`removed_at`, hidden from lists), so `notified_at` keeps limiting invitations.
 * `token` is the opaque token of the links in every mail to this address (accept, decline, unsubscribe).
 */
export const digestSubscribers = pgTable(
  'digest_subscribers',
  {
    subscriberId: uuid('subscriber_id').primaryKey().defaultRandom(),
    digestId: uuid('digest_id')
      .notNull()
      .references(() => digests.digestId, { onDelete: 'cascade' }),
    /** Trimmed and lower-cased. */
    email: text('email').notNull(),
    token: text('token').notNull(),
    status: text('status').notNull().default('invited'),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /** When the last invitation was queued for this address (one per 7 days at most). */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /**
     * An invitation is queued and not yet sent: the job claims it (true → false) before sending, so a
     * retry never sends twice. It stays pending while the owner's address is unverified.
     */
    noticePending: boolean('notice_pending').notNull().default(false),
  },
  (table) => [
    uniqueIndex('digest_subscribers_digest_email_unique').on(table.digestId, table.email),
    uniqueIndex('digest_subscribers_token_unique').on(table.token),
    check(
      'digest_subscribers_status_check',
      sql`${table.status} in ('invited', 'subscribed', 'declined', 'unsubscribed', 'bouncing')`,
    ),
  ],
);

/**
 * One issue of a digest: the HTML and text rendered once (written by the build job) for the owner and the
 * subscribers, and `public_html`, the copy a public page shows: blocks that read private data replaced by
 * their title and "Private". Issues stored before that copy existed have none and are never public.
 */
export const digestBuilds = pgTable(
  'digest_builds',
  {
    buildId: uuid('build_id').primaryKey().defaultRandom(),
    digestId: uuid('digest_id')
      .notNull()
      .references(() => digests.digestId, { onDelete: 'cascade' }),
    buildNumber: integer('build_number').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    publicHtml: text('public_html'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('digest_builds_digest_number_unique').on(table.digestId, table.buildNumber),
    // Retention and the storage quota delete a digest's oldest issues first.
    index('digest_builds_digest_created_idx').on(table.digestId, table.createdAt),
  ],
);
