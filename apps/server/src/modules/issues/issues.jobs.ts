import { z } from 'zod';
import { defineJob, HEARTBEAT_SECONDS } from '#server/platform/jobs/job-queue';

export const buildIssuePayload = z.object({ runId: z.uuid() });
export type BuildIssuePayload = z.infer<typeof buildIssuePayload>;

/** Several builds run at once, since most of a build is waiting for providers and the SMTP server. */
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
  // A full batch fetches the next at once: waiting out the polling interval after every batch capped a
  // process at 2 × 8 builds per 0.5 s, which is what the burst bench measured (60/s with two workers).
  // Two batches at once (docs/decisions/0011): four kept the CPU no busier, but their synchronous rendering
  // filled each turn of the event loop, and a delivery waits three turns between its final-dot mark and its
  // `sent` write: a worker killed then left 0–5 deliveries `uncertain` (2 on average), two batches 0–1.
  work: { batchSize: 8, pollingIntervalSeconds: 0.5, localConcurrency: 2, burstWhenBatchFull: true },
});
