import { sharePageUrl } from '@digest/contracts';
import { type LegalLinks, personalizeDigest, recipientFooter } from '@digest/email';
import type { OutgoingMail } from '#server/platform/mailer';
import type { findDeliveryToSend } from './deliveries.repository';

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

type IssueDelivery = NonNullable<Awaited<ReturnType<typeof findDeliveryToSend>>>;

/** The mail of one delivery: the stored issue with this recipient's footer and headers. */
export function issueMailOf(
  appUrl: string,
  legal: LegalLinks,
  delivery: IssueDelivery,
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
    headers = { ...subscriberListHeaders(appUrl, delivery, links), 'Reply-To': delivery.ownerEmail };
  } else {
    headers = { 'List-Id': listIdHeader(delivery.digestName, delivery.digestId, appUrl) };
    footer = recipientFooter(
      { kind: 'owner', appDigestUrl: `${appUrl}/digests/${delivery.digestId}` },
      legal,
    );
  }
  const body = personalizeDigest({ html: delivery.html, text: delivery.text }, footer);
  return {
    to: delivery.recipient,
    subject: `${delivery.digestName} · Issue ${delivery.buildNumber}`,
    html: body.html,
    text: body.text,
    headers,
    messageId: delivery.messageId,
    bounceToken: delivery.bounceToken,
  };
}
