import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-queue';

export const buildIssuePayload = z.object({ runId: z.uuid() });
export type BuildIssuePayload = z.infer<typeof buildIssuePayload>;

/**
 * A dead worker's jobs come back after `heartbeatSeconds` instead of the 15-minute expiry: the SIGKILL
 * of a worker mid-burst delays its jobs by seconds. Several builds run at once, since most of a build is
 * waiting for providers.
 */
const HEARTBEAT_SECONDS = 30;

export const buildIssueJob = defineJob({
  name: 'issues.build',
  payload: buildIssuePayload,
  // Exclusive: one queued or running build per `digestId:slot` key (the issue_runs row is the lasting guard).
  queue: {
    policy: 'exclusive',
    retryLimit: 3,
    retryDelay: 20,
    retryBackoff: true,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  },
  work: { batchSize: 8, pollingIntervalSeconds: 0.5, localConcurrency: 2 },
});

export const deliverPayload = z.object({ deliveryId: z.uuid() });
export type DeliverPayload = z.infer<typeof deliverPayload>;

export const deliverJob = defineJob({
  name: 'issues.deliver',
  payload: deliverPayload,
  // Temporary SMTP failures: ≈15 s, 30 s, 1 min … capped at 10 min, with jitter, over about 40 minutes.
  queue: {
    retryLimit: 8,
    retryDelay: 15,
    retryBackoff: true,
    retryDelayMax: 600,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  },
  work: { batchSize: 20, pollingIntervalSeconds: 0.5, localConcurrency: 2 },
});

export const settleStuckDeliveriesJob = defineJob({
  name: 'issues.settle-stuck-deliveries',
  payload: z.object({}),
  cron: '*/15 * * * *',
  queue: { policy: 'stately', retryLimit: 1 },
});
