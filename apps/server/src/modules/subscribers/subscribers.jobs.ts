import { MAX_SUBSCRIBERS } from '@digest/contracts';
import { ActionEmail, type LegalLinks, renderEmail } from '@digest/email';
import { createElement } from 'react';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import {
  quotedInSubject,
  replyToOwner,
  subscriberListHeaders,
  subscriptionLinks,
} from '#server/modules/deliveries/deliveries.mail';
import { isBounce, mailFailureText } from '#server/modules/deliveries/mail-failures';
import { recordBounce } from '#server/modules/deliveries/suppressions.repository';
import type { Clock } from '#server/platform/clock';
import { defineJob, MAIL_ON_REQUEST_QUEUE } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import { claimNotice, heldInvitationIds, releaseNotice } from './subscribers.repository';
import { ownerNameOf } from './subscribers.usecases';

/** The friends one change invited: one job per change, so a list of 100 is one fetch of the queue. */
export const subscriberNoticePayload = z.object({
  subscriberIds: z.array(z.uuid()).min(1).max(MAX_SUBSCRIBERS),
});

export interface NoticeDeps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  legal: LegalLinks;
}

type Notice = NonNullable<Awaited<ReturnType<typeof claimNotice>>>;

const FREQUENCY_OF: Record<string, string> = {
  daily: 'each day',
  weekly: 'each week',
  monthly: 'each month',
};

/** The links of an invitation: the page asks before it accepts or declines (mail scanners follow links). */
export function invitationLinks(appUrl: string, token: string) {
  const page = `${appUrl}/invitations/${encodeURIComponent(token)}`;
  return { page, decline: `${page}?answer=decline`, never: `${page}?answer=never` };
}

/** The subject: fixed words around the quoted names of the owner and the digest (docs/design.md §10). */
export function invitationSubject(ownerName: string, digestName: string) {
  return `Digest invitation: ${quotedInSubject(ownerName)} invites you to ${quotedInSubject(digestName)}`;
}

async function sendNotice(deps: NoticeDeps, notice: Notice) {
  const links = subscriptionLinks(deps.appUrl, notice.shareToken, notice.token);
  const invitation = invitationLinks(deps.appUrl, notice.token);
  const sharer = ownerNameOf(notice);
  const subject = invitationSubject(sharer, notice.digestName);
  const footer = createElement(
    'span',
    null,
    `You get this e-mail because ${sharer} added ${notice.email} to their Digest. Nothing more is sent unless you accept. `,
    createElement('a', { href: invitation.never }, 'Never invite me again'),
    ' (from anyone on Digest).',
  );
  const { html, text } = await renderEmail(
    createElement(ActionEmail, {
      title: subject,
      preview: `Accept to receive "${notice.digestName}" ${FREQUENCY_OF[notice.scheduleType] ?? ''}, or decline`,
      heading: `${sharer} invites you to a Digest`,
      paragraphs: [
        `${sharer} would like to send you "${notice.digestName}", a newsletter made with Digest: one e-mail ${FREQUENCY_OF[notice.scheduleType] ?? 'now and then'}.`,
        'Nothing is sent to you unless you accept. You can unsubscribe from any issue later.',
      ],
      action: { label: 'Accept or decline', href: invitation.page },
      footnote: `Not interested? Decline here: ${invitation.decline}`,
      footer,
      legal: deps.legal,
    }),
  );
  await deps.mailer.send({
    to: notice.email,
    subject,
    html,
    text,
    headers: { ...replyToOwner(notice), ...subscriberListHeaders(deps.appUrl, notice, links) },
  });
}

/**
 * The invitation (double opt-in, docs/design.md §10): sent once to each newly invited friend, with a page
 * to accept or decline and a one-click unsubscribe (List-Unsubscribe headers). Each invitation is claimed
 * before it is sent: nothing goes to an address that was removed, answered or suppressed in the meantime,
 * nothing while the owner's address is unverified, and a retry after a failed send mails only those that
 * were not sent. A permanent refusal (5xx) marks the address bouncing for every owner.
 */
export const subscriberNoticeJob = defineJob({
  name: 'subscribers.send-notices',
  payload: subscriberNoticePayload,
  queue: MAIL_ON_REQUEST_QUEUE,
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
      deps.logger.info({ subscriberId, digestId: notice.digestId }, 'invitation sent');
    } catch (error) {
      if (isBounce(error)) {
        await recordBounce(deps.db, notice.email, deps.clock.now());
        deps.logger.warn({ subscriberId, reason: mailFailureText(error) }, 'invitation refused for good');
        continue;
      }
      await releaseNotice(deps.db, subscriberId);
      failure ??= error;
    }
  }
  if (failure) throw failure;
}

/** Queues the invitations that waited for the owner's address to be verified (releaseHeldMailJob). */
export async function queueHeldInvitations(
  deps: { db: Database; notify(subscriberIds: string[]): Promise<void> },
  userId: string,
) {
  const ids = await heldInvitationIds(deps.db, userId);
  for (let start = 0; start < ids.length; start += MAX_SUBSCRIBERS) {
    await deps.notify(ids.slice(start, start + MAX_SUBSCRIBERS));
  }
}
