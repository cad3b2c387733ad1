import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The hand-over of a finished social sign-in to the web app: a single-use, short-lived ticket (stored as a
 * hash) that the web app exchanges for a session, so tokens never travel in a URL.
 */
export const socialTickets = pgTable(
  'social_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    isNewUser: boolean('is_new_user').notNull(),
    /** Hash of the cookie of the browser that started the flow: only that browser may redeem the ticket. */
    browserBindingHash: text('browser_binding_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('social_tickets_expires_idx').on(table.expiresAt)],
);
