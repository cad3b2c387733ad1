import type { NewsletterMessageSummary } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';
import { addressOf, type Mailer } from '#server/platform/mailer';
import { presentSummary } from './newsletters.presenter';
import * as repository from './newsletters.repository';
import { mailboxAddressOf, type NewslettersDeps, newslettersErrors } from './newsletters.usecases';

/**
 * The Reply button of a "reply to this e-mail to confirm" list: one short reply from the user's own
 * address (`username@MAIL_DOMAIN`, the address the list has) to the message's Reply-To, else its From,
 * as `Re: <subject>` with In-Reply-To and References naming the original, so list software matches it.
 * Sent once: the message is resolved before sending (two clicks race for that, one wins) and unresolved
 * again if the mail could not be sent, so the user can try again.
 */

export interface ReplyDeps extends NewslettersDeps {
  mailer: Pick<Mailer, 'send'>;
}

export const replyErrors = {
  notReplyToConfirm: () =>
    new AppError(
      422,
      'NOT_REPLY_TO_CONFIRM',
      'Only a message that asks for a reply to confirm a subscription can be answered here.',
    ),
  alreadyResolved: () =>
    new AppError(409, 'ALREADY_RESOLVED', 'This message was already replied to or dismissed.'),
  noAddress: () =>
    new AppError(
      422,
      'NO_NEWSLETTER_ADDRESS',
      'Choose a username first: the reply is sent from your newsletter address.',
    ),
  noReplyAddress: () =>
    new AppError(422, 'NO_REPLY_ADDRESS', 'This message names no address a reply could go to.'),
  notSent: () =>
    new AppError(502, 'REPLY_NOT_SENT', 'The reply could not be sent. Please try again in a few minutes.'),
};

/** What the reply says: any reply confirms, a clear one helps a person reading it. */
export const CONFIRMING_REPLY = 'Yes, please confirm my subscription.';

const PLAIN_ADDRESS = /^[^\s@<>(),;:"\\]+@[a-z0-9.-]+\.[a-z]{2,}$/i;
/** A Message-ID fit for a header: no spaces, brackets or line breaks. */
const MESSAGE_ID = /^[\x21-\x3b\x3d\x3f-\x7e]{1,250}$/;

const replySubject = (subject: string) => {
  const oneLine = subject
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, 200);
  return /^re:/i.test(oneLine) ? oneLine : `Re: ${oneLine}`;
};

export async function replyToConfirm(
  deps: ReplyDeps,
  userId: string,
  messageId: string,
): Promise<NewsletterMessageSummary> {
  const found = await repository.findMessage(deps.db, userId, messageId);
  if (!found) throw newslettersErrors.messageNotFound();
  const { message } = found;
  if (message.kind !== 'reply_to_confirm') throw replyErrors.notReplyToConfirm();
  if (message.resolvedAt) throw replyErrors.alreadyResolved();
  const from = await mailboxAddressOf(deps, userId);
  if (!from) throw replyErrors.noAddress();
  const to = addressOf(message.replyTo ?? message.fromAddress);
  if (!PLAIN_ADDRESS.test(to)) throw replyErrors.noReplyAddress();

  if (!(await repository.resolvePinnedMessage(deps.db, userId, messageId, deps.clock.now()))) {
    throw replyErrors.alreadyResolved();
  }
  const original = MESSAGE_ID.test(message.internetMessageId) ? `<${message.internetMessageId}>` : undefined;
  try {
    await deps.mailer.send({
      fromMailbox: from,
      to,
      subject: replySubject(message.subject),
      text: CONFIRMING_REPLY,
      html: `<p>${CONFIRMING_REPLY}</p>`,
      ...(original ? { headers: { 'In-Reply-To': original, References: original } } : {}),
    });
  } catch {
    await repository.unresolveMessage(deps.db, userId, messageId);
    throw replyErrors.notSent();
  }
  const after = await repository.findMessage(deps.db, userId, messageId);
  if (!after) throw newslettersErrors.messageNotFound();
  return presentSummary(after.summary);
}
