import { CATCH_UP_TITLE, sharePageUrl } from '@digest/contracts';
import { type LegalLinks, personalizeDigest, recipientFooter } from '@digest/email';
import type { OutgoingMail } from '#server/platform/mailer';
import type { DeliveryToSend } from './deliveries.repository';

/**
 * Links of a subscription: the public page (null while the digest is private: no mail links a page that
 * answers 404), the confirmation page and the RFC 8058 one-click POST.
 */
export function subscriptionLinks(appUrl: string, shareToken: string | null, token: string) {
  const encoded = encodeURIComponent(token);
  return {
    publicPage: shareToken ? sharePageUrl(appUrl, shareToken) : null,
    unsubscribePage: `${appUrl}/unsubscribe/${encoded}`,
    oneClick: `${appUrl}/api/subscriptions/${encoded}/unsubscribe`,
  };
}

/** `List-Id` of a digest's mails (RFC 2919): its name and a stable id under the app's host. */
export function listIdHeader(digestName: string, digestId: string, appUrl: string) {
  const id = `<${digestId}.digests.${new URL(appUrl).hostname}>`;
  const name = digestName.replace(/[\r\n]/g, ' ');
  // A name beyond ASCII is an RFC 2047 word: the id after it stays readable to the clients that filter on it.
  if (!/^[\x20-\x7e]*$/.test(name)) return `=?UTF-8?B?${Buffer.from(name).toString('base64')}?= ${id}`;
  return `"${name.replace(/["\\]/g, '')}" ${id}`;
}

/**
 * The headers of every mail to a subscriber of a digest (its issues, the notice that they were added):
 * the list it belongs to, and the RFC 8058 one-click unsubscribe mail clients offer as their own button.
 */
export function subscriberListHeaders(
  appUrl: string,
  digest: { digestId: string; digestName: string },
  links: ReturnType<typeof subscriptionLinks>,
) {
  return {
    'List-Id': listIdHeader(digest.digestName, digest.digestId, appUrl),
    'List-Unsubscribe': `<${links.oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** The longest name a subject quotes; a longer one is cut with an ellipsis. */
export const SUBJECT_NAME_MAX_LENGTH = 60;

/**
 * A name written by an owner (a digest's, their own) as a quoted part of a fixed subject, never the
 * subject itself: control and format characters (newlines, bidi overrides) become spaces, runs of space
 * shrink to one, the length is capped, and the quotes show where the owner's text starts and ends. With
 * the subject starting with the product's fixed words, "URGENT: verify your bank account" cannot be how
 * a mail from Digest reads in an inbox.
 */
export function quotedInSubject(name: string): string {
  const plain = name
    .replace(/[\p{C}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...plain];
  const capped =
    chars.length > SUBJECT_NAME_MAX_LENGTH
      ? `${chars.slice(0, SUBJECT_NAME_MAX_LENGTH - 1).join('')}…`
      : plain;
  return `“${capped}”`;
}

/** The subject of an issue: fixed words around the quoted digest name (and a catch-up's mark). */
export function issueSubject(digestName: string, buildNumber: number, catchUp = false) {
  const subject = `Digest ${quotedInSubject(digestName)}, issue ${buildNumber}`;
  return catchUp ? `${subject}: ${CATCH_UP_TITLE}` : subject;
}

/**
 * Replies go to the owner only when the owner's address is verified: otherwise anyone could sign up with
 * someone else's address and have friends' replies sent there. (Nothing is mailed from an unverified
 * account anyway; the rule stays explicit here.)
 */
export function replyToOwner(owner: { ownerEmail: string; ownerConfirmed: boolean }): Record<string, string> {
  return owner.ownerConfirmed ? { 'Reply-To': owner.ownerEmail } : {};
}

/** The mail of one delivery: the stored issue with this recipient's footer and headers. */
export function issueMailOf(
  appUrl: string,
  legal: LegalLinks,
  delivery: DeliveryToSend,
  token: string | null,
): OutgoingMail {
  const sharer = delivery.ownerName?.trim() || delivery.ownerEmail;
  let headers: Record<string, string>;
  let footer: { html: string; text: string };
  if (delivery.kind === 'subscriber' && token) {
    // The stored issue already links its public page, when the digest had one at build time.
    const links = subscriptionLinks(appUrl, null, token);
    footer = recipientFooter(
      {
        kind: 'subscriber',
        ownerName: sharer,
        unsubscribeUrl: links.unsubscribePage,
      },
      legal,
    );
    headers = { ...subscriberListHeaders(appUrl, delivery, links), ...replyToOwner(delivery) };
  } else {
    headers = { 'List-Id': listIdHeader(delivery.digestName, delivery.digestId, appUrl) };
    footer = recipientFooter(
      { kind: 'owner', appDigestUrl: `${appUrl}/digests/${delivery.digestId}` },
      legal,
    );
  }
  // The links that fix a failing source are the owner's: a friend's copy never has them.
  const body = personalizeDigest({ html: delivery.html, text: delivery.text }, footer, {
    owner: delivery.kind === 'owner',
  });
  return {
    to: delivery.recipient,
    subject: issueSubject(delivery.digestName, delivery.buildNumber, delivery.catchUp),
    html: body.html,
    text: body.text,
    headers,
    messageId: delivery.messageId,
    bounceToken: delivery.bounceToken,
  };
}
