import { z } from 'zod';
import type { JobDefinition } from '../../platform/jobs/job-queue';
import {
  buildIssue,
  type DeliverPayload,
  type DeliveryDeps,
  deliver,
  failRun,
  type IssuesDeps,
  settleStuckDeliveries,
} from './issues.usecases';

export const buildIssuePayload = z.object({ runId: z.uuid() });
export type BuildIssuePayload = z.infer<typeof buildIssuePayload>;

/**
 * A dead worker's jobs come back after `heartbeatSeconds` instead of the 15-minute expiry: the SIGKILL
 * of a worker mid-burst delays its jobs by seconds. Several builds run at once, since most of a build is
 * waiting for providers.
 */
const HEARTBEAT_SECONDS = 30;

export function buildIssueJob(deps: IssuesDeps): JobDefinition<BuildIssuePayload> {
  return {
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
    async handle({ runId }, attempt) {
      try {
        await buildIssue(deps, runId);
      } catch (error) {
        if (attempt && attempt.retryCount >= attempt.retryLimit) await failRun(deps, runId, error);
        throw error;
      }
    },
  };
}

export const deliverPayload = z.object({ deliveryId: z.uuid() });

export function deliverJob(deps: DeliveryDeps): JobDefinition<DeliverPayload> {
  return {
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
    handle: ({ deliveryId }, attempt) => deliver(deps, deliveryId, attempt),
  };
}

export function settleStuckDeliveriesJob(deps: DeliveryDeps): JobDefinition<object> {
  return {
    name: 'issues.settle-stuck-deliveries',
    payload: z.object({}),
    cron: '*/15 * * * *',
    queue: { policy: 'stately', retryLimit: 1 },
    async handle() {
      await settleStuckDeliveries(deps);
    },
  };
}
