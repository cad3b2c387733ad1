import { MAX_SUBSCRIBERS } from '@digest/contracts';
import { ActionEmail, renderEmail } from '@digest/email';
import { createElement } from 'react';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { defineJob } from '../../platform/jobs/job-queue';
import type { Logger } from '../../platform/logger';
import type { Mailer } from '../../platform/mailer';
import { claimNotice, releaseNotice } from './subscribers.repository';

/** The subscribers one change added: one job per change, so a list of 100 is one fetch of the queue. */
export const subscriberNoticePayload = z.object({
  subscriberIds: z.array(z.uuid()).min(1).max(MAX_SUBSCRIBERS),
});

export interface NoticeDeps {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
}

/** Links of a subscription: the public page, the confirmation page and the RFC 8058 one-click POST. */
export function subscriptionLinks(appUrl: string, digestId: string, token: string) {
  const encoded = encodeURIComponent(token);
  return {
    publicPage: `${appUrl}/digests/share/${digestId}`,
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

type Notice = NonNullable<Awaited<ReturnType<typeof claimNotice>>>;

async function sendNotice(deps: NoticeDeps, notice: Notice) {
  const links = subscriptionLinks(deps.appUrl, notice.digestId, notice.token);
  const sharer = notice.ownerName?.trim() || notice.ownerEmail;
  const subject = `${sharer} shared the Digest "${notice.digestName}" with you`;
  const footer = createElement(
    'span',
    null,
    `You get this e-mail because ${sharer} (${notice.ownerEmail}) added ${notice.email} to their Digest. `,
    createElement('a', { href: links.unsubscribePage }, 'Unsubscribe'),
    ' and you will not receive it again.',
  );
  const { html, text } = await renderEmail(
    createElement(ActionEmail, {
      title: subject,
      preview: `Read "${notice.digestName}" online or in your inbox`,
      heading: `${sharer} shared a Digest with you`,
      paragraphs: [
        `${sharer} added you to "${notice.digestName}", a newsletter made with Digest. Each new issue will arrive in this inbox when it is sent.`,
        'You can read the latest issue online now.',
      ],
      action: { label: 'Read it online', href: links.publicPage },
      footnote: `Not interested? Unsubscribe here: ${links.unsubscribePage}`,
      footer,
    }),
  );
  await deps.mailer.send({
    to: notice.email,
    subject,
    html,
    text,
    headers: {
      'Reply-To': notice.ownerEmail,
      'List-Id': listIdHeader(notice.digestName, notice.digestId, deps.appUrl),
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}

/**
 * "{owner} shared a Digest with you": sent once to each new subscriber, with the public page and an
 * unsubscribe link (plus List-Unsubscribe headers, so mail clients offer their own button). Each notice
 * is claimed before it is sent: nothing goes to an address that unsubscribed or was removed in the
 * meantime, and a retry after a failed send mails only those that were not sent.
 */
export const subscriberNoticeJob = defineJob({
  name: 'subscribers.send-notices',
  payload: subscriberNoticePayload,
  queue: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
});

export async function sendSubscriberNotices(
  deps: NoticeDeps,
  { subscriberIds }: { subscriberIds: string[] },
) {
  let failure: unknown;
  for (const subscriberId of subscriberIds) {
    const notice = await claimNotice(deps.db, subscriberId);
    if (!notice) continue;
    try {
      await sendNotice(deps, notice);
      deps.logger.info({ subscriberId, digestId: notice.digestId }, 'subscriber notice sent');
    } catch (error) {
      await releaseNotice(deps.db, subscriberId);
      failure ??= error;
    }
  }
  if (failure) throw failure;
}
