import { z } from 'zod';
import type { Database } from '../../db/client';
import type { JobDefinition } from '../../jobs/job-queue';
import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/logger';
import { deleteExpiredTokens } from './housekeeping.repository';

export function purgeExpiredTokensJob(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
}): JobDefinition<object> {
  return {
    name: 'housekeeping.purge-expired-tokens',
    payload: z.object({}),
    cron: '*/15 * * * *',
    queue: { policy: 'stately', retryLimit: 1 },
    async handle() {
      const deleted = await deleteExpiredTokens(deps.db, deps.clock.now());
      deps.logger.info({ deleted }, 'purged expired tokens');
    },
  };
}
