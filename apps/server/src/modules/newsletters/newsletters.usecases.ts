import type {
  NewsletterMailbox,
  NewsletterMessage,
  NewsletterMessageSummary,
  NewsletterMessagesPage,
  NewsletterMessagesQuery,
  NewsletterSender,
  NewsletterSenderStateBody,
} from '@digest/contracts';
import type { Database } from '#server/db/client';
import { isUuid } from '#server/modules/digests/ids';
import type { Clock } from '#server/platform/clock';
import { AppError } from '#server/platform/http/errors';
import type { SignedLinkQuery, SignedLinks } from '#server/platform/http/signed-link';
import { presentMessage, presentSender, presentSummary } from './newsletters.presenter';
import * as repository from './newsletters.repository';

export const newslettersErrors = {
  messageNotFound: () =>
    new AppError(404, 'NEWSLETTER_MESSAGE_NOT_FOUND', 'No such message in your mailbox.'),
  senderNotFound: () => new AppError(404, 'NEWSLETTER_SENDER_NOT_FOUND', 'No such sender in your mailbox.'),
  badCursor: () =>
    new AppError(
      400,
      'VALIDATION_ERROR',
      'querystring.cursor: not a cursor this list gave (start again without it)',
    ),
  notPinned: () =>
    new AppError(
      422,
      'NEWSLETTER_NOT_PINNED',
      'Only a confirmation, a forwarding code or a reply-to-confirm message can be dismissed.',
    ),
};

/** Pinned messages shown at the top of the page: a handful is all anyone acts on. */
export const PINNED_LIMIT = 20;

export interface NewslettersDeps {
  db: Database;
  clock: Clock;
  mailDomain: string;
  /** NEWSLETTER_QUOTA_MB, in bytes. */
  quotaBytes: number;
  /** Whether this deployment receives mail (INBOUND_SMTP_PORT is set). */
  receiving: boolean;
  /** Signs the reader frame's links (`messageHtmlPath`). */
  messageLinks: SignedLinks;
}

/** `username@MAIL_DOMAIN`, as the profile shows it; null before the user has a username. */
export async function mailboxAddressOf(deps: Pick<NewslettersDeps, 'db' | 'mailDomain'>, userId: string) {
  const row = await repository.findUsername(deps.db, userId);
  return row?.username ? `${row.username.toLowerCase()}@${deps.mailDomain}` : null;
}

export async function getMailbox(deps: NewslettersDeps, userId: string): Promise<NewsletterMailbox> {
  const [address, totals, senders, pinned] = await Promise.all([
    mailboxAddressOf(deps, userId),
    repository.mailboxTotals(deps.db, userId),
    repository.listSenders(deps.db, userId),
    repository.listPinned(deps.db, userId, PINNED_LIMIT),
  ]);
  return {
    address,
    receiving: deps.receiving,
    usedBytes: totals.usedBytes,
    quotaBytes: deps.quotaBytes,
    full: totals.usedBytes >= deps.quotaBytes,
    unreadCount: totals.unreadCount,
    senders: senders.map(presentSender),
    pinned: pinned.map(presentSummary),
  };
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

const cursorOf = (row: repository.MessageSummaryRow) =>
  Buffer.from(JSON.stringify([row.receivedAtText, row.messageId])).toString('base64url');

function parseCursor(cursor: string): { receivedAtText: string; messageId: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw newslettersErrors.badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw newslettersErrors.badCursor();
  const [receivedAtText, messageId] = parsed as unknown[];
  if (typeof receivedAtText !== 'string' || !CURSOR_TIME.test(receivedAtText))
    throw newslettersErrors.badCursor();
  if (typeof messageId !== 'string' || !isUuid(messageId)) throw newslettersErrors.badCursor();
  return { receivedAtText, messageId };
}

export async function listMessages(
  deps: NewslettersDeps,
  userId: string,
  query: NewsletterMessagesQuery,
): Promise<NewsletterMessagesPage> {
  const after = query.cursor ? parseCursor(query.cursor) : undefined;
  // One more than the page tells whether another page follows.
  const rows = await repository.listMessages(deps.db, userId, {
    ...(query.q ? { q: query.q } : {}),
    ...(query.senderId ? { senderId: query.senderId } : {}),
    ...(query.unread ? { unread: query.unread === 'true' } : {}),
    ...(after ? { after } : {}),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    messages: page.map(presentSummary),
    nextCursor: rows.length > query.limit && last ? cursorOf(last) : null,
  };
}

/** What a signed reader link opens: this message for this user. */
const linkSubject = (userId: string, messageId: string) => `newsletter/${userId}/${messageId}`;

/** The reader frame's address of a message: `/api/newsletters/messages/{id}/html?expires=…&signature=…`. */
export function messageHtmlPath(
  deps: Pick<NewslettersDeps, 'messageLinks'>,
  userId: string,
  messageId: string,
) {
  return `/api/newsletters/messages/${messageId}/html?${deps.messageLinks.query(linkSubject(userId, messageId))}`;
}

async function summaryOf(deps: NewslettersDeps, userId: string, messageId: string) {
  const row = await repository.findMessage(deps.db, userId, messageId);
  if (!row) throw newslettersErrors.messageNotFound();
  return row;
}

/** One message for the reader; opening it marks it read. */
export async function openMessage(
  deps: NewslettersDeps,
  userId: string,
  messageId: string,
): Promise<NewsletterMessage> {
  if (!(await repository.setMessageRead(deps.db, userId, messageId, true, deps.clock.now()))) {
    throw newslettersErrors.messageNotFound();
  }
  const { summary, message } = await summaryOf(deps, userId, messageId);
  const htmlUrl = message.html === null ? null : messageHtmlPath(deps, userId, messageId);
  return presentMessage(summary, message, htmlUrl);
}

/**
 * The stored sanitised HTML of a message, by its signed link only (the frame sends no token). A link
 * that is tampered with, expired, made for another message or for another user opens nothing: 404.
 */
export async function messageHtml(deps: NewslettersDeps, messageId: string, query: SignedLinkQuery) {
  const row = isUuid(messageId) ? await repository.findMessageHtml(deps.db, messageId) : undefined;
  if (!row || row.html === null || !deps.messageLinks.isValid(linkSubject(row.userId, messageId), query)) {
    throw newslettersErrors.messageNotFound();
  }
  return row.html;
}

export async function setRead(
  deps: NewslettersDeps,
  userId: string,
  messageId: string,
  read: boolean,
): Promise<NewsletterMessageSummary> {
  if (!(await repository.setMessageRead(deps.db, userId, messageId, read, deps.clock.now()))) {
    throw newslettersErrors.messageNotFound();
  }
  return presentSummary((await summaryOf(deps, userId, messageId)).summary);
}

/** Unpins a confirmation, forwarding code or reply-to-confirm message; dismissing it again changes nothing. */
export async function dismiss(
  deps: NewslettersDeps,
  userId: string,
  messageId: string,
): Promise<NewsletterMessageSummary> {
  const { summary } = await summaryOf(deps, userId, messageId);
  if (summary.kind === 'newsletter') throw newslettersErrors.notPinned();
  await repository.resolvePinnedMessage(deps.db, userId, messageId, deps.clock.now());
  return presentSummary((await summaryOf(deps, userId, messageId)).summary);
}

export async function deleteMessage(deps: NewslettersDeps, userId: string, messageId: string) {
  if (!(await repository.deleteMessage(deps.db, userId, messageId)))
    throw newslettersErrors.messageNotFound();
}

export async function senderOf(deps: Pick<NewslettersDeps, 'db'>, userId: string, senderId: string) {
  const row = await repository.findSender(deps.db, userId, senderId);
  if (!row) throw newslettersErrors.senderNotFound();
  return row;
}

export async function setSenderState(
  deps: NewslettersDeps,
  userId: string,
  senderId: string,
  body: NewsletterSenderStateBody,
): Promise<NewsletterSender> {
  if (!(await repository.setSenderState(deps.db, userId, senderId, body.state))) {
    throw newslettersErrors.senderNotFound();
  }
  return presentSender(await senderOf(deps, userId, senderId));
}

/** "Delete all": the sender's messages go, the sender (and its state) stays. */
export async function deleteSenderMessages(
  deps: NewslettersDeps,
  userId: string,
  senderId: string,
): Promise<NewsletterSender> {
  if (!(await repository.deleteSenderMessages(deps.db, userId, senderId))) {
    throw newslettersErrors.senderNotFound();
  }
  return presentSender(await senderOf(deps, userId, senderId));
}
