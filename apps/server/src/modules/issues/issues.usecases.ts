import { randomUUID } from 'node:crypto';
import { personalizeDigest, recipientFooter, renderDigestEmail } from '@digest/email';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { JobAttempt, JobQueue } from '../../platform/jobs/job-queue';
import type { Logger } from '../../platform/logger';
import type { Mailer } from '../../platform/mailer';
import type { HostLimiter } from '../../platform/safe-fetch/host-limiter';
import type { Connectors } from '../../sources/connectors';
import { listIdHeader, subscriptionLinks } from '../subscribers/subscribers.jobs';
import { fetchIssueBlocks } from './issue-content';
import { deliverJob } from './issues.jobs';
import * as repository from './issues.repository';
import { isPermanentMailFailure, mailFailureText } from './mail-failures';

export interface IssuesDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  connectors: Connectors;
  appUrl: string;
  mailDomain: string;
  queue: Pick<JobQueue, 'sendMany'>;
}

export type BuildOutcome =
  | { status: 'built'; build: { buildNumber: number; createdAt: Date } }
  | { status: 'skipped' | 'empty'; reason: string }
  | { status: 'done-before' };

/** The public page of an issue: "View in browser" and the 'Continue reading' target. */
function publicIssueUrl(appUrl: string, digestId: string, buildNumber: number) {
  return `${appUrl}/digests/share/${digestId}/${buildNumber}`;
}

/** Renders can race with a "Send latest digest" of the same digest: the number is checked under lock. */
const NUMBERING_ATTEMPTS = 3;

/**
 * Builds the issue of one run: fetches every source concurrently, renders once, stores it as the next
 * numbered issue and, in the same transaction, creates one delivery (and one delivery job) per
 * recipient — the owner, plus every active subscriber unless `ownerOnly`. An issue without any news
 * is not stored or sent; the run keeps the reason. Running it again for a finished run does nothing.
 */
export async function buildIssue(
  deps: IssuesDeps,
  runId: string,
  options: { ownerOnly?: boolean } = {},
): Promise<BuildOutcome> {
  const run = await repository.findRunForBuild(deps.db, runId);
  if (run?.status !== 'queued') return { status: 'done-before' };
  const log = deps.logger.child({ digestId: run.digestId, runId });
  if (run.trigger === 'schedule' && !run.active) {
    const reason = 'The digest was paused before this issue was built.';
    await repository.finishRun(deps.db, runId, 'skipped', deps.clock.now(), { reason });
    return { status: 'skipped', reason };
  }

  const context = { userId: run.userId, timezone: run.timeZone, locale: run.locale };
  const { blocks, withNews } = await fetchIssueBlocks(deps.connectors, run.sources, context, (error, type) =>
    log.error({ err: error, type }, 'a source failed unexpectedly'),
  );
  if (withNews === 0) {
    const failed = blocks.filter((block) => block.error).length;
    const reason =
      run.sources.length === 0
        ? 'The digest has no sources.'
        : `Nothing to send: ${failed} of ${blocks.length} sources failed and the others had nothing new.`;
    await repository.finishRun(deps.db, runId, 'empty', deps.clock.now(), { reason });
    log.info({ reason }, 'issue not sent');
    return { status: 'empty', reason };
  }

  const recipients = [
    { recipient: run.ownerEmail, kind: 'owner' as const, subscriberId: null },
    ...(options.ownerOnly
      ? []
      : (await repository.activeSubscribers(deps.db, run.digestId)).map((subscriber) => ({
          recipient: subscriber.email,
          kind: 'subscriber' as const,
          subscriberId: subscriber.subscriberId,
        }))),
  ];

  for (let attempt = 1; ; attempt += 1) {
    const buildNumber = await repository.peekNextBuildNumber(deps.db, run.digestId);
    const rendered = await renderDigestEmail({
      digestName: run.name,
      issueNumber: buildNumber,
      date: run.slot,
      timeZone: run.timeZone,
      locale: run.locale,
      blocks,
      publicUrl: publicIssueUrl(deps.appUrl, run.digestId, buildNumber),
    });
    const build = await deps.db.transaction(async (tx) => {
      if ((await repository.nextBuildNumber(tx, run.digestId)) !== buildNumber) return undefined;
      const now = deps.clock.now();
      const stored = await repository.insertBuild(tx, {
        digestId: run.digestId,
        buildNumber,
        html: rendered.html,
        text: rendered.text,
        createdAt: now,
      });
      await repository.finishRun(tx, runId, 'built', now, { buildId: stored.buildId });
      const rows = recipients.map((recipient) => {
        const deliveryId = randomUUID();
        return {
          ...recipient,
          deliveryId,
          buildId: stored.buildId,
          digestId: run.digestId,
          messageId: `<${deliveryId}@${deps.mailDomain}>`,
          createdAt: now,
          updatedAt: now,
        };
      });
      const inserted = await repository.insertDeliveries(tx, rows);
      await deps.queue.sendMany(
        deliverJob,
        inserted.map((row) => ({ payload: { deliveryId: row.deliveryId } })),
        { tx },
      );
      return stored;
    });
    if (build) {
      log.info({ buildNumber, recipients: recipients.length, truncated: rendered.truncated }, 'issue built');
      return { status: 'built', build: { buildNumber: build.buildNumber, createdAt: build.createdAt } };
    }
    if (attempt >= NUMBERING_ATTEMPTS)
      throw new Error('another issue of this digest kept being stored first');
  }
}

/** One attempt of a build job: when the last one fails (the job will not run again), the run records why. */
export async function buildIssueAttempt(deps: IssuesDeps, runId: string, attempt?: JobAttempt) {
  try {
    await buildIssue(deps, runId);
  } catch (error) {
    if (attempt && attempt.retryCount >= attempt.retryLimit) await failRun(deps, runId, error);
    throw error;
  }
}

async function failRun(deps: Pick<IssuesDeps, 'db' | 'clock'>, runId: string, error: unknown) {
  await repository.finishRun(deps.db, runId, 'failed', deps.clock.now(), {
    reason: `The issue could not be built: ${(error as Error).message ?? String(error)}`.slice(0, 500),
  });
}

export interface DeliveryDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  appUrl: string;
  /**
   * Turns to send, as many as the mailer has connections. A delivery is claimed (`sending`) only once it
   * has one, so a worker that dies leaves at most that many deliveries uncertain, not every one it had
   * fetched and that was waiting for a connection.
   */
  sendSlots: HostLimiter;
}

const NEVER_ABORTED = new AbortController().signal;

type DeliveryRow = NonNullable<Awaited<ReturnType<typeof repository.findDeliveryToSend>>>;

/** The mail of one delivery: the stored issue with this recipient's footer and headers. */
function mailOf(deps: DeliveryDeps, delivery: DeliveryRow, token: string | null) {
  const sharer = delivery.ownerName?.trim() || delivery.ownerEmail;
  const headers: Record<string, string> = {
    'List-Id': listIdHeader(delivery.digestName, delivery.digestId, deps.appUrl),
  };
  let footer: { html: string; text: string };
  if (delivery.kind === 'subscriber' && token) {
    const links = subscriptionLinks(deps.appUrl, delivery.digestId, token);
    footer = recipientFooter({
      kind: 'subscriber',
      ownerName: sharer,
      unsubscribeUrl: links.unsubscribePage,
    });
    headers['List-Unsubscribe'] = `<${links.oneClick}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    headers['Reply-To'] = delivery.ownerEmail;
  } else {
    footer = recipientFooter({ kind: 'owner', appDigestUrl: `${deps.appUrl}/digests/${delivery.digestId}` });
  }
  const body = personalizeDigest({ html: delivery.html, text: delivery.text }, footer);
  return {
    to: delivery.recipient,
    subject: `${delivery.digestName} · Issue ${delivery.buildNumber}`,
    html: body.html,
    text: body.text,
    headers,
    messageId: delivery.messageId,
  };
}

/**
 * Sends one delivery (DESIGN §6: `pending → sending → sent | failed`). Only the attempt that moves the
 * row out of `pending` sends, so no retry mails twice. A row still `sending` when its job runs again
 * belongs to an attempt that died mid-send: the SMTP server may have taken the mail, so it becomes
 * `uncertain` instead of being sent a second time. Temporary SMTP failures go back to `pending` and
 * throw (the queue retries with backoff); permanent ones, and the last attempt, fail for good.
 */
export async function deliver(deps: DeliveryDeps, deliveryId: string, attempt?: JobAttempt): Promise<void> {
  const release = await deps.sendSlots.acquire('smtp', NEVER_ABORTED);
  try {
    await deliverInTurn(deps, deliveryId, attempt);
  } finally {
    release();
  }
}

async function deliverInTurn(deps: DeliveryDeps, deliveryId: string, attempt?: JobAttempt): Promise<void> {
  const now = deps.clock.now();
  if (!(await repository.claimDelivery(deps.db, deliveryId, now))) {
    if ((await repository.findDeliveryState(deps.db, deliveryId)) === 'sending') {
      await repository.settleDelivery(deps.db, deliveryId, 'sending', 'uncertain', now, INTERRUPTED);
      deps.logger.warn({ deliveryId }, 'delivery interrupted mid-send: marked uncertain');
    }
    return;
  }
  const delivery = await repository.findDeliveryToSend(deps.db, deliveryId);
  if (!delivery) return;
  if (delivery.kind === 'subscriber' && (delivery.subscriberGone || !delivery.subscriberToken)) {
    await repository.settleDelivery(
      deps.db,
      deliveryId,
      'sending',
      'cancelled',
      now,
      'Unsubscribed before it was sent.',
    );
    return;
  }
  try {
    await deps.mailer.send(mailOf(deps, delivery, delivery.subscriberToken));
    await repository.settleDelivery(deps.db, deliveryId, 'sending', 'sent', deps.clock.now());
  } catch (error) {
    const text = mailFailureText(error);
    const lastAttempt = attempt !== undefined && attempt.retryCount >= attempt.retryLimit;
    if (isPermanentMailFailure(error) || lastAttempt) {
      await repository.settleDelivery(deps.db, deliveryId, 'sending', 'failed', deps.clock.now(), text);
      deps.logger.warn({ deliveryId, reason: text }, 'delivery failed for good');
      return;
    }
    await repository.settleDelivery(deps.db, deliveryId, 'sending', 'pending', deps.clock.now(), text);
    throw error;
  }
}

/**
 * A delivery normally leaves `sending` within a minute; one still there an hour later belongs to an
 * attempt that died with no retry left to notice it. It is listed as uncertain like the others.
 */
export const STUCK_SENDING_MS = 60 * 60_000;

export async function settleStuckDeliveries(deps: Pick<DeliveryDeps, 'db' | 'clock' | 'logger'>) {
  const now = deps.clock.now();
  const settled = await repository.markStuckSendingUncertain(
    deps.db,
    new Date(now.getTime() - STUCK_SENDING_MS),
    now,
    INTERRUPTED,
  );
  if (settled > 0) deps.logger.warn({ settled }, 'deliveries stuck while sending marked uncertain');
  return settled;
}

const INTERRUPTED =
  'The sender stopped while this mail was being sent; the SMTP server may or may not have accepted it.';
