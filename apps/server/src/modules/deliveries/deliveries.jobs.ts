import { z } from 'zod';
import { defineJob, HEARTBEAT_SECONDS, MAIL_ON_REQUEST_QUEUE } from '#server/platform/jobs/job-queue';

/** A delivery's first retry waits this long; later ones back off from it (the queue's retryDelay). */
export const FIRST_RETRY_SECONDS = 15;

export const deliverPayload = z.object({ deliveryId: z.uuid() });
export type DeliverPayload = z.infer<typeof deliverPayload>;

// The queue names keep their `issues.` prefix: the queues exist under these names in stored databases.
export const deliverJob = defineJob({
  name: 'issues.deliver',
  payload: deliverPayload,
  // Temporary SMTP failures: ≈15 s, 30 s, 1 min … capped at 10 min, with jitter, over about 40 minutes.
  queue: {
    retryLimit: 8,
    retryDelay: FIRST_RETRY_SECONDS,
    retryBackoff: true,
    retryDelayMax: 600,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  },
  // As the builds: a full batch fetches the next at once instead of after the polling interval.
  work: { batchSize: 20, pollingIntervalSeconds: 0.5, localConcurrency: 2, burstWhenBatchFull: true },
});

export const settleStuckDeliveriesJob = defineJob({
  name: 'issues.settle-stuck-deliveries',
  payload: z.object({}),
  cron: '*/15 * * * *',
  queue: { policy: 'stately', retryLimit: 1 },
});

/**
 * Sends what waited for an account's address to be verified (docs/design.md §10): the newest held issue
 * of each digest and the held invitations. Sent by the verification of the address.
 */
export const releaseHeldMailJob = defineJob({
  name: 'deliveries.release-held-mail',
  payload: z.object({ userId: z.uuid() }),
  queue: MAIL_ON_REQUEST_QUEUE,
});
