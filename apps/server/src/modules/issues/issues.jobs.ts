import { z } from 'zod';
import { defineJob, HEARTBEAT_SECONDS } from '#server/platform/jobs/job-queue';

export const buildIssuePayload = z.object({ runId: z.uuid() });
export type BuildIssuePayload = z.infer<typeof buildIssuePayload>;

/** Several builds run at once, since most of a build is waiting for providers. */
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
