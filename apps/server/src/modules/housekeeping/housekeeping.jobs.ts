import { z } from 'zod';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import { defineJob } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import {
  deleteExpiredIssues,
  deleteExpiredTokens,
  deleteForgottenSentItems,
  deleteStaleSourceCache,
} from './housekeeping.repository';

export interface HousekeepingDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
}

export const purgeExpiredTokensJob = defineJob({
  name: 'housekeeping.purge-expired-tokens',
  payload: z.object({}),
  cron: '*/15 * * * *',
  queue: { policy: 'stately', retryLimit: 1 },
});

export async function purgeExpiredTokens(deps: HousekeepingDeps) {
  const deleted = await deleteExpiredTokens(deps.db, deps.clock.now());
  deps.logger.info({ deleted }, 'purged expired tokens');
}

/** A stale row is kept a day: long enough to be revalidated by the next digest reading it. */
export const SOURCE_CACHE_GRACE_MS = 24 * 60 * 60 * 1000;
/** Rows hold at most 2 MB each; the table as a whole at most this. */
export const SOURCE_CACHE_MAX_BYTES = 256 * 1024 * 1024;
export const SOURCE_CACHE_LIMITS = { graceMs: SOURCE_CACHE_GRACE_MS, maxBytes: SOURCE_CACHE_MAX_BYTES };

export const purgeSourceCacheJob = defineJob({
  name: 'housekeeping.purge-source-cache',
  payload: z.object({}),
  cron: '*/15 * * * *',
  queue: { policy: 'stately', retryLimit: 1 },
});

export async function purgeSourceCache(
  deps: HousekeepingDeps,
  limits: { graceMs: number; maxBytes: number } = SOURCE_CACHE_LIMITS,
) {
  const deleted = await deleteStaleSourceCache(deps.db, deps.clock.now(), limits);
  deps.logger.info({ deleted }, 'purged the source cache');
}

/** Once a day, at a quiet hour (UTC): retention is counted in months, so a day's delay changes nothing. */
export const purgeExpiredIssuesJob = defineJob({
  name: 'housekeeping.purge-expired-issues',
  payload: z.object({}),
  cron: '40 3 * * *',
  queue: { policy: 'stately', retryLimit: 1 },
});

export async function purgeExpiredIssues(deps: HousekeepingDeps) {
  const now = deps.clock.now();
  const deleted = await deleteExpiredIssues(deps.db, now);
  deps.logger.info({ deleted }, 'purged issues past their retention');
  const forgotten = await deleteForgottenSentItems(deps.db, now);
  deps.logger.info({ forgotten }, 'forgot the items digests sent before the bound');
}
