import { MAX_SUBSCRIBERS } from '@digest/contracts';
import { ActionEmail, type LegalLinks, renderEmail } from '@digest/email';
import { createElement } from 'react';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import { subscriberListHeaders, subscriptionLinks } from '#server/modules/deliveries/deliveries.mail';
import { defineJob } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
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
  legal: LegalLinks;
}

type Notice = NonNullable<Awaited<ReturnType<typeof claimNotice>>>;

async function sendNotice(deps: NoticeDeps, notice: Notice) {
  const links = subscriptionLinks(deps.appUrl, notice.shareToken, notice.token);
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
      preview: links.publicPage
        ? `Read "${notice.digestName}" online or in your inbox`
        : `Read "${notice.digestName}" in your inbox`,
      heading: `${sharer} shared a Digest with you`,
      paragraphs: [
        `${sharer} added you to "${notice.digestName}", a newsletter made with Digest. Each new issue will arrive in this inbox when it is sent.`,
        // A private digest has no public page to read (docs/design.md §10).
        ...(links.publicPage ? ['You can read the latest issue online now.'] : []),
      ],
      action: links.publicPage ? { label: 'Read it online', href: links.publicPage } : undefined,
      footnote: `Not interested? Unsubscribe here: ${links.unsubscribePage}`,
      footer,
      legal: deps.legal,
    }),
  );
  await deps.mailer.send({
    to: notice.email,
    subject,
    html,
    text,
    headers: { 'Reply-To': notice.ownerEmail, ...subscriberListHeaders(deps.appUrl, notice, links) },
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
