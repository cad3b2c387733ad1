import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './columns';

export const users = pgTable(
  'users',
  {
    userId: uuid('user_id').primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed. */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    /** How the account was created: `email` (password), `google`, `twitter` or `facebook`. */
    method: text('method').notNull().default('email'),
    fullName: text('full_name'),
    username: text('username'),
    bio: text('bio'),
    /** The address is proven the owner's: a verification link, a reset link or a social provider. */
    confirmed: boolean('confirmed').notNull().default(false),
    /** A new address asked for but not verified yet: `email` changes only when its link is followed. */
    pendingEmail: text('pending_email'),
    timezone: text('timezone'),
    locale: text('locale'),
    timezoneOffset: integer('timezone_offset'),
    /** Random id of the current photo: its URL changes with every upload, so it can be cached forever. */
    photoId: uuid('photo_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    // Usernames are unique whatever their case: they form the newsletter address username@domain.
    uniqueIndex('users_username_lower_unique').on(sql`lower(${table.username})`),
  ],
);

/**
 * A username its owner gave up, held for them for a while (USERNAME_RESERVATION_DAYS) so that nobody else
 * receives their newsletter mail or takes over their public page at once. Keyed by the lower-cased name,
 * since usernames are unique whatever their case; the owner may take it back.
 */
export const releasedUsernames = pgTable(
  'released_usernames',
  {
    usernameLower: text('username_lower').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    releasedAt: timestamp('released_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('released_usernames_released_idx').on(table.releasedAt)],
);

/** The re-encoded square PNG of a user's photo. */
export const userPhotos = pgTable('user_photos', {
  photoId: uuid('photo_id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.userId, { onDelete: 'cascade' }),
  png: bytea('png').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A sign-in through Google, X/Twitter or Facebook, tied to the account with the same verified e-mail. */
export const socialIdentities = pgTable(
  'social_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('social_identities_provider_subject').on(table.provider, table.subject)],
);
