import * as z from 'zod/mini';

/**
 * The newsletter mailbox's API (`/api/newsletters/…`): one schema per rule, read by the server's routes
 * and the web app's Newsletters page.
 */

/** What becomes of a sender's mail (see `newsletter_senders` on the server). */
export const NEWSLETTER_SENDER_STATES = ['included', 'muted', 'blocked', 'unsubscribed'] as const;
export type NewsletterSenderState = (typeof NEWSLETTER_SENDER_STATES)[number];

/** What the mailbox found a message to be: the last three are pinned until acted on. */
export const NEWSLETTER_MESSAGE_KINDS = [
  'newsletter',
  'confirmation',
  'forwarding_code',
  'reply_to_confirm',
] as const;
export type NewsletterMessageKind = (typeof NEWSLETTER_MESSAGE_KINDS)[number];

/** The mailbox quota a user's stored messages count against, unless the operator sets NEWSLETTER_QUOTA_MB. */
export const NEWSLETTER_QUOTA_DEFAULT_MB = 200;

const authenticationResultSchema = z.object({
  /** `pass`, `fail`, `softfail`, `neutral`, `none`, `temperror`, `permerror` (RFC 8601 words). */
  result: z.string(),
  /** The domain the result is for, when there is one. */
  domain: z.nullable(z.string()),
});

/** SPF, DKIM and DMARC, as checked when the message arrived. */
export const newsletterAuthenticationSchema = z.object({
  spf: authenticationResultSchema,
  dkim: authenticationResultSchema,
  dmarc: authenticationResultSchema,
});
export type NewsletterAuthentication = z.infer<typeof newsletterAuthenticationSchema>;

export const newsletterSenderSchema = z.object({
  senderId: z.uuid(),
  name: z.string(),
  address: z.string(),
  listId: z.nullable(z.string()),
  state: z.enum(NEWSLETTER_SENDER_STATES),
  firstSeenAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** Messages received from it since it was first seen. */
  messageCount: z.number().check(z.int()),
  /** Messages of it still in the mailbox, and how many of those are unread. */
  storedCount: z.number().check(z.int()),
  unreadCount: z.number().check(z.int()),
  /** Whether Unsubscribe can act for the user: a one-click https link or a mailto address. */
  canUnsubscribe: z.boolean(),
  /**
   * The sender's own unsubscribe web page (https) when Unsubscribe cannot act for the user (no one-click,
   * no mailto): the page links it for the user to open. Null otherwise.
   */
  unsubscribePage: z.nullable(z.string()),
  unsubscribe: z.nullable(
    z.object({
      outcome: z.enum(['sent', 'failed']),
      detail: z.nullable(z.string()),
      at: z.iso.datetime(),
    }),
  ),
});
export type NewsletterSender = z.infer<typeof newsletterSenderSchema>;

export const newsletterMessageSummarySchema = z.object({
  messageId: z.uuid(),
  senderId: z.uuid(),
  senderName: z.string(),
  fromAddress: z.string(),
  subject: z.string(),
  excerpt: z.string(),
  receivedAt: z.iso.datetime(),
  read: z.boolean(),
  kind: z.enum(NEWSLETTER_MESSAGE_KINDS),
  /** The confirm link of a confirmation; the code of a forwarding verification. */
  confirmUrl: z.nullable(z.string()),
  forwardingCode: z.nullable(z.string()),
  /** A pinned message the user has acted on or dismissed. */
  resolved: z.boolean(),
});
export type NewsletterMessageSummary = z.infer<typeof newsletterMessageSummarySchema>;

export const newsletterMessageSchema = z.extend(newsletterMessageSummarySchema, {
  recipient: z.string(),
  replyTo: z.nullable(z.string()),
  sentAt: z.iso.datetime(),
  sizeBytes: z.number().check(z.int()),
  authentication: newsletterAuthenticationSchema,
  text: z.string(),
  /** Whether it has an HTML part; the reader frame loads it from `htmlUrl`. */
  hasHtml: z.boolean(),
  /**
   * `/api/newsletters/messages/{id}/html?expires=…&signature=…`: the sanitised HTML for the reader frame,
   * which cannot send the bearer token. Signed for this user and message, it works for a few minutes;
   * null without an HTML part.
   */
  htmlUrl: z.nullable(z.string()),
});
export type NewsletterMessage = z.infer<typeof newsletterMessageSchema>;

/** GET /api/newsletters: the address, the quota, the senders and what is pinned. */
export const newsletterMailboxSchema = z.object({
  /** `username@MAIL_DOMAIN`, or null before the user has a username. */
  address: z.nullable(z.string()),
  /** Whether this server receives mail (the inbound role is configured). */
  receiving: z.boolean(),
  usedBytes: z.number().check(z.int()),
  quotaBytes: z.number().check(z.int()),
  /** Used ≥ quota: new mail is refused (452, so senders retry) until messages are deleted. */
  full: z.boolean(),
  unreadCount: z.number().check(z.int()),
  senders: z.array(newsletterSenderSchema),
  /** Unresolved confirmations, forwarding codes and reply-to-confirm messages, newest first. */
  pinned: z.array(newsletterMessageSummarySchema),
});
export type NewsletterMailbox = z.infer<typeof newsletterMailboxSchema>;

export const NEWSLETTER_SEARCH_MAX_LENGTH = 200;
export const NEWSLETTER_PAGE_SIZE_MAX = 100;

/** GET /api/newsletters/messages query: newest first, filtered by sender or words of the sender or subject. */
export const newsletterMessagesQuerySchema = z.strictObject({
  q: z.optional(
    z.string().check(
      z.trim(),
      z.maxLength(NEWSLETTER_SEARCH_MAX_LENGTH, {
        error: `Search should have at most ${NEWSLETTER_SEARCH_MAX_LENGTH} characters`,
      }),
    ),
  ),
  senderId: z.optional(z.uuid({ error: 'senderId must be a sender id' })),
  unread: z.optional(z.enum(['true', 'false'])),
  /** The `nextCursor` of the previous page. */
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(NEWSLETTER_PAGE_SIZE_MAX)), 50),
});
export type NewsletterMessagesQuery = z.infer<typeof newsletterMessagesQuerySchema>;

export const newsletterMessagesPageSchema = z.object({
  messages: z.array(newsletterMessageSummarySchema),
  nextCursor: z.nullable(z.string()),
});
export type NewsletterMessagesPage = z.infer<typeof newsletterMessagesPageSchema>;

/** PUT /api/newsletters/senders/{senderId}: Include, Mute or Block (Unsubscribe has its own call). */
export const newsletterSenderStateBodySchema = z.strictObject({
  state: z.enum(['included', 'muted', 'blocked'], {
    error: 'state must be included, muted or blocked',
  }),
});
export type NewsletterSenderStateBody = z.infer<typeof newsletterSenderStateBodySchema>;

/** PUT /api/newsletters/messages/{messageId}/read: mark read or unread. */
export const newsletterReadBodySchema = z.strictObject({
  read: z.boolean({ error: 'read must be true or false' }),
});
export type NewsletterReadBody = z.infer<typeof newsletterReadBodySchema>;

/** What a message's change answers: the message as listed now. */
export const newsletterMessageResponseSchema = z.object({ message: newsletterMessageSummarySchema });

/** What a sender's change answers: the sender as listed now. */
export const newsletterSenderResponseSchema = z.object({ sender: newsletterSenderSchema });

/**
 * POST /api/newsletters/senders/{senderId}/unsubscribe. `sent`: the one-click POST was accepted or the
 * mailto request was sent (the sender is now `unsubscribed`); `failed`: what went wrong is in `detail`;
 * `open_link`: the sender offers only a web page, which the user must open (`link`) — it is never
 * fetched for them, as a GET could confirm anything.
 */
export const newsletterUnsubscribeResponseSchema = z.object({
  outcome: z.enum(['sent', 'failed', 'open_link']),
  detail: z.nullable(z.string()),
  link: z.nullable(z.string()),
  sender: newsletterSenderSchema,
});
export type NewsletterUnsubscribeResponse = z.infer<typeof newsletterUnsubscribeResponseSchema>;
