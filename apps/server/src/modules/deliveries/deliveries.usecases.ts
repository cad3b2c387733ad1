import type { LegalLinks } from '@digest/email';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import type { JobAttempt, JobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import { deliverJob, FIRST_RETRY_SECONDS } from './deliveries.jobs';
import { issueMailOf } from './deliveries.mail';
import * as repository from './deliveries.repository';
import { isAnswered, isBounce, isPermanentMailFailure, mailFailureText } from './mail-failures';
import { recordBounce } from './suppressions.repository';

/**
 * Queues the job of each delivery, in the transaction that made them pending: a stored issue's deliveries
 * and their jobs exist together (held and cancelled rows get no job).
 */
export function sendDeliverJobs(tx: Database, queue: Pick<JobQueue, 'sendMany'>, deliveryIds: string[]) {
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
  deps: Pick<DeliveryDeps, 'db' | 'clock' | 'logger' | 'queue'>,
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
  /** Queues the deliveries the stuck sweep sends again, and those a first attempt hands over. */
  queue: Pick<JobQueue, 'sendMany' | 'send'>;
}

/**
 * Sends deliveries now, in the process that made them (the issue's build job), instead of through a job
 * each: a job per delivery cost an insert, a fetch and a completion (≈ 1 statement an issue of a burst).
 * An attempt that fails for now (a temporary SMTP failure, a lost connection to the database) hands the
 * delivery to its job, which retries it with the queue's backoff as any delivery; from the row's state
 * (`pending`, or `sending` before or after the final dot) it continues as a retry would.
 */
export async function deliverNow(deps: DeliveryDeps, deliveryIds: readonly string[]): Promise<void> {
  await Promise.all(
    deliveryIds.map(async (deliveryId) => {
      try {
        await deliver(deps, deliveryId);
      } catch (error) {
        deps.logger.info(
          { deliveryId, reason: mailFailureText(error) },
          'delivery failed for now: its job retries it',
        );
        await deps.queue.send(deliverJob, { deliveryId }, { startAfterSeconds: FIRST_RETRY_SECONDS });
      }
    }),
  );
}

/**
 * Sends one delivery (docs/design.md §6: `pending → sending → sent | failed`). Only the attempt that moves the
 * row out of `pending` sends, so no retry mails twice. Just before the message's final dot (the end of
 * DATA, after which the SMTP server owns it) the attempt marks the row; a row still `sending` when its job
 * runs again belongs to an attempt that died mid-send: before the mark the server discarded the message
 * and it is sent again; after it the server may have taken it, so it becomes `uncertain` instead of being
 * sent a second time, as is one whose connection is lost between the final dot and the answer. Temporary
 * SMTP failures go back to `pending` and throw (the queue retries with backoff); permanent ones, and the
 * last attempt, fail for good.
 */
export async function deliver(deps: DeliveryDeps, deliveryId: string, attempt?: JobAttempt): Promise<void> {
  // A delivery is claimed (`sending`) only once the mailer has a connection for it: claims that would
  // wait for one are not taken, and a worker's rows in `sending` stay as few as its connections.
  const release = await deps.mailer.waitForConnection();
  try {
    await deliverInTurn(deps, deliveryId, attempt);
  } finally {
    release();
  }
}

async function deliverInTurn(deps: DeliveryDeps, deliveryId: string, attempt?: JobAttempt): Promise<void> {
  const now = deps.clock.now();
  const delivery = await claimOrRecover(deps, deliveryId, now);
  if (!delivery) return;
  const claim = { deliveryId: delivery.deliveryId, attempts: delivery.attempts };
  if (!delivery.ownerConfirmed) {
    // Queued before the gate held it (or the address became unverified since): it waits for the release.
    await repository.settleClaim(deps.db, claim, 'held', now);
    return;
  }
  if (delivery.kind === 'subscriber' && (delivery.subscriberGone || !delivery.subscriberToken)) {
    await repository.settleClaim(deps.db, claim, 'cancelled', now, 'Unsubscribed before it was sent.');
    return;
  }
  let finalDotMayHaveGone = false;
  try {
    await deps.mailer.send(issueMailOf(deps.appUrl, deps.legal, delivery, delivery.subscriberToken), {
      beforeFinalDot: async () => {
        if (!(await repository.markFinalDot(deps.db, claim, deps.clock.now()))) throw new ClaimTakenOver();
        finalDotMayHaveGone = true;
      },
    });
    await repository.settleClaim(deps.db, claim, 'sent', deps.clock.now());
  } catch (error) {
    if (error instanceof ClaimTakenOver) {
      // A newer attempt holds the row and sends it; this one stopped before the final dot.
      deps.logger.warn(
        { deliveryId },
        'delivery claimed by a newer attempt: this one stopped before the final dot',
      );
      return;
    }
    if (finalDotMayHaveGone && !isAnswered(error)) {
      // The connection was lost between the final dot and the server's answer: the server may have the
      // message, and sending it again could deliver it twice.
      await repository.settleClaim(deps.db, claim, 'uncertain', deps.clock.now(), UNANSWERED);
      deps.logger.warn(
        { deliveryId, reason: mailFailureText(error) },
        'delivery unanswered after its final dot: marked uncertain',
      );
      return;
    }
    const text = mailFailureText(error);
    const lastAttempt = attempt !== undefined && attempt.retryCount >= attempt.retryLimit;
    if (isPermanentMailFailure(error) || lastAttempt) {
      await repository.settleClaim(deps.db, claim, 'failed', deps.clock.now(), text);
      if (delivery.kind === 'subscriber' && isBounce(error)) {
        await recordBounce(deps.db, delivery.recipient, deps.clock.now());
      }
      deps.logger.warn({ deliveryId, reason: text }, 'delivery failed for good');
      return;
    }
    await repository.settleClaim(deps.db, claim, 'pending', deps.clock.now(), text);
    throw error;
  }
}

/**
 * The claim of a pending row; else, of a row whose attempt died before its final dot (sent again); a row
 * whose attempt died after it becomes `uncertain`. Anything else (sent, failed, …) is left alone. A claim
 * comes with what to send.
 */
async function claimOrRecover(deps: DeliveryDeps, deliveryId: string, now: Date) {
  const claim = await repository.claimDelivery(deps.db, deliveryId, now);
  if (claim) return claim;
  const reclaimed = await repository.reclaimBeforeFinalDot(deps.db, deliveryId, now);
  if (reclaimed) {
    deps.logger.warn({ deliveryId }, 'delivery interrupted before its final dot: sending it again');
    return reclaimed;
  }
  if (await repository.markInterruptedUncertain(deps.db, deliveryId, now, INTERRUPTED)) {
    deps.logger.warn({ deliveryId }, 'delivery interrupted after its final dot: marked uncertain');
  }
  return undefined;
}

/** The final-dot mark found the row claimed by a newer attempt. */
class ClaimTakenOver extends Error {
  constructor() {
    super('The delivery was claimed by a newer attempt');
  }
}

/**
 * A delivery normally leaves `sending` within a minute; one still there an hour later belongs to an
 * attempt that died with no retry left to notice it. Killed before its final dot, it is queued again;
 * after, it is listed as uncertain like the others. A row `pending` for an hour has no job or build job
 * left to send it: it is queued too.
 */
export const STUCK_SENDING_MS = 60 * 60_000;

/**
 * Attempts a delivery stuck before its final dot may have before the sweep stops queueing it again: a
 * message that kills its sender every time (too large to build, a crash in the mailer) would otherwise be
 * retried hourly for ever. Two jobs' worth of retries (9 attempts each).
 */
export const MAX_STUCK_ATTEMPTS = 18;

export async function settleStuckDeliveries(deps: Pick<DeliveryDeps, 'db' | 'clock' | 'logger' | 'queue'>) {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - STUCK_SENDING_MS);
  const { requeued, given, forgotten } = await deps.db.transaction(async (tx) => {
    const settled = await repository.settleStuckBeforeFinalDot(tx, {
      before,
      now,
      maxAttempts: MAX_STUCK_ATTEMPTS,
      requeueReason: INTERRUPTED_BEFORE_FINAL_DOT,
      failReason: GIVEN_UP_BEFORE_FINAL_DOT,
    });
    const pending = await repository.touchForgottenPending(tx, before, now);
    await sendDeliverJobs(tx, deps.queue, [...settled.requeued, ...pending]);
    return { requeued: settled.requeued.length, given: settled.failed, forgotten: pending.length };
  });
  const uncertain = await repository.markStuckSendingUncertain(deps.db, before, now, INTERRUPTED);
  if (requeued > 0) deps.logger.warn({ requeued }, 'deliveries stuck before their final dot queued again');
  if (forgotten > 0) deps.logger.warn({ forgotten }, 'deliveries left pending without a job queued again');
  if (given > 0) deps.logger.error({ given }, 'deliveries that stopped their sender every time failed');
  if (uncertain > 0) deps.logger.warn({ uncertain }, 'deliveries stuck while sending marked uncertain');
  return requeued + given + forgotten + uncertain;
}

const GIVEN_UP_BEFORE_FINAL_DOT = `The sender stopped every time it sent this mail (${MAX_STUCK_ATTEMPTS} attempts), each time before the SMTP server could accept it: it was not delivered.`;

const INTERRUPTED =
  'The sender stopped while this mail was being sent; the SMTP server may or may not have accepted it.';

const UNANSWERED =
  'The connection to the SMTP server was lost after the end of this mail, before its answer; the server may or may not have accepted it.';

const INTERRUPTED_BEFORE_FINAL_DOT =
  'The sender stopped before the end of this mail reached the SMTP server; it is sent again.';
