import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A provider account (Google, X/Twitter, Stripe) connected as a source. Tokens are encrypted at rest
 * (`v2.<iv>.<tag>.<ciphertext>`, AES-256-GCM, key derived from APP_SECRET, bound to the row's user, provider
 * and provider account): a leaked table holds none, and a value moved to another row does not open.
 * Connecting the same provider account again updates its row.
 */
export const connectedAccounts = pgTable(
  'connected_accounts',
  {
    /** docs/product.md's `tokenId`: random, so it says nothing about the account or its order. */
    tokenId: uuid('token_id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** GOOGLE, TWITTER or STRIPE. */
    provider: text('provider').notNull(),
    /** The provider's id of the account: Google `sub`, X user id, Stripe `acct_…`. */
    providerAccountId: text('provider_account_id').notNull(),
    email: text('email'),
    username: text('username'),
    profilePicture: text('profile_picture'),
    accessTokenEnc: text('access_token_enc').notNull(),
    refreshTokenEnc: text('refresh_token_enc'),
    /** When the access token stops working; null when it does not expire (Stripe). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Space-separated scopes the provider granted. */
    scopes: text('scopes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('connected_accounts_owner_account_unique').on(
      table.userId,
      table.provider,
      table.providerAccountId,
    ),
  ],
);

/**
 * A connect flow under way: created by the signed-in user (bearer), started once by the browser that holds
 * its cookie, finished once by the provider's callback. The state is stored hashed; single use, short-lived.
 */
export const accountConnectStates = pgTable(
  'account_connect_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce'),
    /** The web app's path to return to. */
    returnTo: text('return_to').notNull(),
    /** Set when the browser went to the provider: the start address works once. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('account_connect_states_user_idx').on(table.userId),
    index('account_connect_states_expires_idx').on(table.expiresAt),
  ],
);
