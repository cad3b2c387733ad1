import { type ConstructorOptions, fromPglite, PgBoss, type Queue } from 'pg-boss';
import type { z } from 'zod';
import type { Role } from '../app/config';
import type { DatabaseHandle } from '../db/client';
import type { Logger } from '../platform/logger';

/** A job as a typed contract: its queue name, payload schema, optional cron and handler. */
export interface JobDefinition<Payload = unknown> {
  name: string;
  payload: z.ZodType<Payload>;
  /** Cron expression (UTC) when the scheduler role should enqueue this job periodically. */
  cron?: string;
  queue?: Omit<Queue, 'name'>;
  handle(payload: Payload): Promise<void>;
}

export interface JobQueue {
  start(): Promise<void>;
  stop(timeoutMs: number): Promise<void>;
  ping(): Promise<void>;
  send<Payload>(job: JobDefinition<Payload>, payload: Payload): Promise<string | null>;
}

function bossOptions(database: DatabaseHandle, roles: Role[]): ConstructorOptions {
  const connection: ConstructorOptions =
    database.kind === 'embedded'
      ? { db: fromPglite(database.pglite), backend: 'pglite' }
      : { connectionString: database.connectionString, max: 4, application_name: 'digest-jobs' };
  return {
    ...connection,
    // Maintenance (expiring, archiving) runs where jobs run; cron timing only in the scheduler role.
    supervise: roles.includes('worker'),
    schedule: roles.includes('scheduler'),
  };
}

/**
 * pg-boss on the application's own database. Every role can send jobs; the worker role works them
 * and the scheduler role keeps their cron schedules.
 */
export function createJobQueue(options: {
  database: DatabaseHandle;
  roles: Role[];
  logger: Logger;
  jobs: JobDefinition<unknown>[];
}): JobQueue {
  const { database, roles, logger, jobs } = options;
  const boss = new PgBoss(bossOptions(database, roles));
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));

  async function work(job: JobDefinition<unknown>) {
    await boss.work(job.name, async (batch) => {
      for (const item of batch) {
        const payload = job.payload.parse(item.data);
        const log = logger.child({ job: job.name, jobId: item.id });
        log.debug('job started');
        await job.handle(payload);
        log.debug('job finished');
      }
    });
  }

  return {
    async start() {
      await boss.start();
      for (const job of jobs) await boss.createQueue(job.name, job.queue ?? {});
      if (roles.includes('scheduler')) {
        for (const job of jobs) if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
      }
      if (roles.includes('worker')) for (const job of jobs) await work(job);
    },
    async stop(timeoutMs) {
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
    async ping() {
      if (!(await boss.isInstalled())) throw new Error('job queue schema is not installed');
    },
    async send(job, payload) {
      return boss.send(job.name, job.payload.parse(payload) as object);
    },
  };
}
