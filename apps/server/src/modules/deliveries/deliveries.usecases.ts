import type { LegalLinks } from '@digest/email';
import type { Database } from '#server/db/client';
import type { deliveries } from '#server/db/schema';
import type { Clock } from '#server/platform/clock';
import type { JobAttempt, JobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import { deliverJob } from './deliveries.jobs';
import { issueMailOf } from './deliveries.mail';
import * as repository from './deliveries.repository';
import { isBounce, isPermanentMailFailure, mailFailureText } from './mail-failures';
import { recordBounce } from './suppressions.repository';

/**
 * Records one delivery per recipient of a stored issue and queues the job of each pending one, in the
 * build's transaction: the deliveries and their jobs exist exactly when the issue does. Held and
 * cancelled rows get no job.
 */
export async function queueDeliveries(
  tx: Database,
  queue: Pick<JobQueue, 'sendMany'>,
  rows: (typeof deliveries.$inferInsert)[],
) {
  const inserted = await repository.insertDeliveries(tx, rows);
  await sendDeliverJobs(
    tx,
    queue,
    inserted.filter((row) => row.state === 'pending').map((row) => row.deliveryId),
  );
}

function sendDeliverJobs(tx: Database, queue: Pick<JobQueue, 'sendMany'>, deliveryIds: string[]) {
  return queue.sendMany(
    deliverJob,
    deliveryIds.map((deliveryId) => ({ payload: { deliveryId } })),
    { tx },
  );
}

export const STALE_HELD_REASON = 'A newer issue was sent instead once the address was verified.';

/**
 * `releaseHeldMailJob`: the owner's address is verified now, so what waited goes out. Only the newest held
 * issue of each digest is sent; older ones would arrive stale and all at once, so they are cancelled with
 * the reason. Does nothing while the address is still unverified.
 */
export async function releaseHeldDeliveries(
  deps: Pick<DeliveryDeps, 'db' | 'clock' | 'logger'> & { queue: Pick<JobQueue, 'sendMany'> },
  userId: string,
) {
  if (!(await repository.isOwnerConfirmed(deps.db, userId))) return;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const held = await repository.lockHeldDeliveries(tx, userId);
    const newest = new Map<string, string>();
    for (const row of held) if (!newest.has(row.digestId)) newest.set(row.digestId, row.buildId);
    const toSend = held
      .filter((row) => newest.get(row.digestId) === row.buildId)
      .map((row) => row.deliveryId);
    const stale = held.filter((row) => newest.get(row.digestId) !== row.buildId).map((row) => row.deliveryId);
    await repository.settleHeld(tx, toSend, 'pending', now);
    await repository.settleHeld(tx, stale, 'cancelled', now, STALE_HELD_REASON);
    await sendDeliverJobs(tx, deps.queue, toSend);
    if (held.length > 0)
      deps.logger.info({ userId, sent: toSend.length, stale: stale.length }, 'held mail released');
  });
}

export interface DeliveryDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  appUrl: string;
  /** The Terms of Service and Privacy Policy every mail's footer links to. */
  legal: LegalLinks;
}

/**
 * Sends one delivery (docs/design.md §6: `pending → sending → sent | failed`). Only the attempt that moves the
 * row out of `pending` sends, so no retry mails twice. A row still `sending` when its job runs again
 * belongs to an attempt that died mid-send: the SMTP server may have taken the mail, so it becomes
 * `uncertain` instead of being sent a second time. Temporary SMTP failures go back to `pending` and
 * throw (the queue retries with backoff); permanent ones, and the last attempt, fail for good.
 */
export async function deliver(deps: DeliveryDeps, deliveryId: string, attempt?: JobAttempt): Promise<void> {
  // A delivery is claimed (`sending`) only once the mailer has a connection for it, so a worker that dies
  // leaves at most that many deliveries uncertain, not every one it had fetched and that was waiting.
  const release = await deps.mailer.waitForConnection();
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
  if (!delivery.ownerConfirmed) {
    // Queued before the gate held it (or the address became unverified since): it waits for the release.
    await repository.settleDelivery(deps.db, deliveryId, 'sending', 'held', now);
    return;
  }
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
    await deps.mailer.send(issueMailOf(deps.appUrl, deps.legal, delivery, delivery.subscriberToken));
    await repository.settleDelivery(deps.db, deliveryId, 'sending', 'sent', deps.clock.now());
  } catch (error) {
    const text = mailFailureText(error);
    const lastAttempt = attempt !== undefined && attempt.retryCount >= attempt.retryLimit;
    if (isPermanentMailFailure(error) || lastAttempt) {
      await repository.settleDelivery(deps.db, deliveryId, 'sending', 'failed', deps.clock.now(), text);
      if (delivery.kind === 'subscriber' && isBounce(error)) {
        await recordBounce(deps.db, delivery.recipient, deps.clock.now());
      }
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
