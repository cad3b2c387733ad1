import { boolean, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    userId: uuid('user_id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    method: text('method').notNull().default('email'),
    fullName: text('full_name'),
    username: text('username'),
    bio: text('bio'),
    confirmed: boolean('confirmed').notNull().default(false),
    timezone: text('timezone'),
    locale: text('locale'),
    timezoneOffset: integer('timezone_offset'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // E-mail and username are stored lower-cased by the use cases; the unique indexes are the final word.
    uniqueIndex('users_email_unique').on(table.email),
    uniqueIndex('users_username_unique').on(table.username),
  ],
);
