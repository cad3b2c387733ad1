import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const SUPPRESSION_REASONS = ['declined', 'unsubscribed', 'bounced', 'refused'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * Addresses that must not be invited (docs/design.md §10, consent before mail), consulted for every owner.
 * A row with an owner stops that owner's invitations (the address declined or unsubscribed); a row without
 * one stops every owner's (the address bounced, or chose "never invite me again").
 */
export const mailSuppressions = pgTable(
  'mail_suppressions',
  {
    suppressionId: uuid('suppression_id').primaryKey().defaultRandom(),
    /** Trimmed and lower-cased. */
    email: text('email').notNull(),
    /** Null: every owner. */
    ownerId: uuid('owner_id').references(() => users.userId, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('mail_suppressions_email_owner_unique').on(table.email, table.ownerId).nullsNotDistinct(),
    check(
      'mail_suppressions_reason_check',
      sql`${table.reason} in ('declined', 'unsubscribed', 'bounced', 'refused')`,
    ),
  ],
);

/**
 * One address other than the owner's that an account caused mail to (an invitation or an issue), kept for
 * the rate limits: invitations per address across all owners, and distinct recipients per account per day.
 * The account is set null when it is deleted, so deleting and signing up again does not reset an address's
 * invitation count.
 */
export const mailRecipientLog = pgTable(
  'mail_recipient_log',
  {
    entryId: uuid('entry_id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.userId, { onDelete: 'set null' }),
    email: text('email').notNull(),
    /** `invitation` or `issue`. */
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('mail_recipient_log_email_idx').on(table.email, table.createdAt),
    index('mail_recipient_log_user_idx').on(table.userId, table.createdAt),
    check('mail_recipient_log_kind_check', sql`${table.kind} in ('invitation', 'issue')`),
  ],
);
