import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { digestBuilds, digests } from './digests';
import { users } from './users';

/**
 * One sender of newsletters to a user's `username@MAIL_DOMAIN` mailbox, keyed by its List-Id when it has
 * one (a list may change its From address) and else by its From address. Its state decides what becomes of
 * its mail: `included` in digests, `muted` (kept, not in digests), `blocked` (later mail refused at the SMTP
 * door), `unsubscribed` (the user unsubscribed through its List-Unsubscribe; later mail is still kept).
 */
export const newsletterSenders = pgTable(
  'newsletter_senders',
  {
    senderId: uuid('sender_id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** `list:<list-id>` or `from:<address>`, lower-cased: what makes two messages one sender's. */
    senderKey: text('sender_key').notNull(),
    /** The From address of its latest message, lower-cased. */
    address: text('address').notNull(),
    /** The List-Id header's identifier (inside the angle brackets), lower-cased, or null. */
    listId: text('list_id'),
    /** The From display name of its latest message, else the list's description, else the address. */
    name: text('name').notNull(),
    state: text('state').notNull().default('included'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Messages received from it, kept or deleted since. */
    messageCount: integer('message_count').notNull().default(0),
    /** Its latest List-Unsubscribe targets (https: and mailto: only), and whether List-Unsubscribe-Post allows one-click. */
    unsubscribeUrl: text('unsubscribe_url'),
    unsubscribeMailto: text('unsubscribe_mailto'),
    unsubscribeOneClick: boolean('unsubscribe_one_click').notNull().default(false),
    /** The outcome of the user's last Unsubscribe: `sent`, `failed`, with what the sender answered. */
    unsubscribeOutcome: text('unsubscribe_outcome'),
    unsubscribeDetail: text('unsubscribe_detail'),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('newsletter_senders_user_key_unique').on(table.userId, table.senderKey),
    index('newsletter_senders_user_address_idx').on(table.userId, table.address),
    check(
      'newsletter_senders_state_check',
      sql`${table.state} in ('included', 'muted', 'blocked', 'unsubscribed')`,
    ),
    check(
      'newsletter_senders_unsubscribe_outcome_check',
      sql`${table.unsubscribeOutcome} is null or ${table.unsubscribeOutcome} in ('sent', 'failed')`,
    ),
  ],
);

/**
 * One message received in a user's newsletter mailbox (docs/design.md §5 `inbound_messages`), stored parsed
 * and sanitised: the SMTP server answers 250 only once this row is committed. `kind` is what the mailbox
 * found it to be; a confirmation, a forwarding code or a reply-to-confirm is pinned on the Newsletters page
 * until the user acts on it or dismisses it (`resolved_at`).
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    messageId: uuid('message_id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => newsletterSenders.senderId, { onDelete: 'cascade' }),
    /** The Message-ID header without angle brackets (or one derived from the content when it has none): the same twice is one message. */
    internetMessageId: text('internet_message_id').notNull(),
    /** The address it was sent to, lower-cased, and the `+tag` of it, if any. */
    recipient: text('recipient').notNull(),
    recipientTag: text('recipient_tag'),
    /** The SMTP envelope sender (MAIL FROM), lower-cased; empty for a bounce. */
    envelopeFrom: text('envelope_from').notNull(),
    fromAddress: text('from_address').notNull(),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    /** The Date header, else when it was received. */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** Sanitised HTML (the one allow-list, tracking pixels dropped), or null for a text-only message. */
    html: text('html'),
    text: text('text').notNull(),
    /** The first words of the text, for lists and digest blocks. */
    excerpt: text('excerpt').notNull(),
    /** The raw message's size in bytes, counted against the mailbox quota. */
    sizeBytes: integer('size_bytes').notNull(),
    /** SPF, DKIM and DMARC results: `{ spf, dkim, dmarc }`, each `{ result, domain? }`. */
    authentication: jsonb('authentication').notNull(),
    /** `newsletter`, `confirmation` (a link to confirm), `forwarding_code` (Gmail/Outlook), `reply_to_confirm`. */
    kind: text('kind').notNull().default('newsletter'),
    /** The confirm link of a confirmation, the code of a forwarding verification. */
    confirmUrl: text('confirm_url'),
    forwardingCode: text('forwarding_code'),
    /** When a pinned message was acted on (confirmed, replied) or dismissed. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('inbound_messages_user_internet_id_unique').on(table.userId, table.internetMessageId),
    index('inbound_messages_user_received_idx').on(table.userId, table.receivedAt),
    index('inbound_messages_sender_idx').on(table.senderId, table.receivedAt),
    check(
      'inbound_messages_kind_check',
      sql`${table.kind} in ('newsletter', 'confirmation', 'forwarding_code', 'reply_to_confirm')`,
    ),
  ],
);

/**
 * The newsletters an issue of a digest carried, so the next issue carries only newer ones and never the
 * same one twice. Kept when the message is deleted later (the row goes with it) or the build is purged.
 */
export const digestNewsletterItems = pgTable(
  'digest_newsletter_items',
  {
    digestId: uuid('digest_id')
      .notNull()
      .references(() => digests.digestId, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => inboundMessages.messageId, { onDelete: 'cascade' }),
    buildId: uuid('build_id').references(() => digestBuilds.buildId, { onDelete: 'set null' }),
    carriedAt: timestamp('carried_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.digestId, table.messageId] })],
);
