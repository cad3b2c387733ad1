import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PoolConfig } from 'pg';
import {
  type ConstructorOptions,
  type DrizzleTransactionLike,
  fromDrizzle,
  fromPglite,
  type JobResult,
  PgBoss,
  type Queue,
  type WorkOptions,
} from 'pg-boss';
import type { z } from 'zod';
import type { Database, DatabaseHandle } from '#server/db/client';
import { PreparingClient } from '#server/db/prepared-statements';
import type { Logger } from '../logger';
import { jobTableStatistics } from './job-table-statistics';

/** What a handler knows about the attempt it runs: the last one may record a final failure. */
export interface JobAttempt {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/**
 * A job as a typed contract: its queue name, payload schema, queue policy, optional cron and how it is
 * fetched. A module exports its contracts; sending needs only the contract, and the composition root
 * gives each contract its handler (`handlerFor`).
 */
export interface JobContract<Payload = unknown> {
  name: string;
  payload: z.ZodType<Payload>;
  /** Cron expression (UTC) when the scheduler role should enqueue this job periodically. */
  cron?: string;
  queue?: Omit<Queue, 'name'>;
  /** How the worker fetches: jobs of one batch run concurrently (default one at a time, every 2 s). */
  work?: Pick<
    WorkOptions,
    'batchSize' | 'pollingIntervalSeconds' | 'localConcurrency' | 'burstWhenBatchFull'
  >;
}

/** A contract typed by its payload schema: `export const buildIssueJob = defineJob({ name, payload, … })`. */
export const defineJob = <Payload>(contract: JobContract<Payload>): JobContract<Payload> => contract;

/** `attempt` is absent when a handler is called directly (tests, cron ticks run by hand). */
export type JobHandler<Payload> = (payload: Payload, attempt?: JobAttempt) => Promise<unknown>;

/** A contract and its handler, as the queue works them: the payload is read with the contract's schema. */
export interface RegisteredJob {
  contract: JobContract;
  run(data: unknown, attempt: JobAttempt): Promise<unknown>;
}

/** Pairs a contract with the handler that works it: the composition root's list of jobs is made of these. */
export function handlerFor<Payload>(
  contract: JobContract<Payload>,
  handle: JobHandler<Payload>,
): RegisteredJob {
  return { contract, run: (data, attempt) => handle(contract.payload.parse(data), attempt) };
}

/**
 * A dead worker's jobs come back after `heartbeatSeconds` instead of the 15-minute expiry: the SIGKILL
 * of a worker mid-burst delays its jobs by seconds (the issue builds and deliveries set it).
 */
export const HEARTBEAT_SECONDS = 30;

/**
 * The queue of a mail someone is waiting for (a verification link, a reset link, a notice they caused):
 * three retries with backoff, and a worker woken when the job is committed (PostgreSQL's NOTIFY, across
 * processes) instead of at its next poll, up to 2 s later.
 */
export const MAIL_ON_REQUEST_QUEUE = {
  retryLimit: 3,
  retryDelay: 30,
  retryBackoff: true,
  notify: true,
} as const satisfies Omit<Queue, 'name'>;

/** Default poll of a queue's workers (pg-boss's); a woken queue keeps it as its backstop (delayed retries). */
const POLLING_INTERVAL_SECONDS = 2;

/** Options of one send: `singletonKey` (see the queue's policy) and the transaction to enqueue within. */
export interface SendOptions {
  singletonKey?: string;
  /** Enqueue inside this transaction: the job exists exactly when the transaction commits. */
  tx?: Database;
  /** The job waits this long before a worker may take it (a retry handed over by its first attempt). */
  startAfterSeconds?: number;
}

export interface JobQueue {
  /** Creates the queues of `jobs`, and works them and keeps their schedules as the role says. */
  start(jobs: RegisteredJob[]): Promise<void>;
  stop(timeoutMs: number): Promise<void>;
  ping(): Promise<void>;
  /** The job's id, or null when the queue policy refused it (a singleton already queued). */
  send<Payload>(job: JobContract<Payload>, payload: Payload, options?: SendOptions): Promise<string | null>;
  /** Many jobs in one statement (a burst of deliveries), optionally inside a transaction. */
  sendMany<Payload>(
    job: JobContract<Payload>,
    items: { payload: Payload; singletonKey?: string }[],
    options?: Pick<SendOptions, 'tx'>,
  ): Promise<void>;
}

/** What this process does with the jobs beyond sending them: work them, keep their cron schedules. */
export interface JobQueueRole {
  work: boolean;
  schedule: boolean;
}

function bossOptions(database: DatabaseHandle, role: JobQueueRole): ConstructorOptions {
  // pg-boss hands its options on to its pg.Pool (typed or not): its statements are prepared like ours.
  const connection: ConstructorOptions & Pick<PoolConfig, 'Client'> =
    database.kind === 'embedded'
      ? { db: fromPglite(database.pglite), backend: 'pglite' }
      : {
          connectionString: database.connectionString,
          max: 4,
          application_name: 'digest-jobs',
          Client: PreparingClient,
        };
  return {
    ...connection,
    // Maintenance (expiring, archiving) runs where jobs run; cron timing only in the scheduler role.
    supervise: role.work,
    schedule: role.schedule,
    // A worker listens for the queues that ask to be woken (`notify`); one more connection on PostgreSQL.
    useListenNotify: role.work,
  };
}

/** The settings `wanted` names that `stored` (a queue as it is in the database) does not have. */
function changedQueueSettings(
  stored: Record<string, unknown>,
  wanted: Omit<Queue, 'name'>,
): Partial<Omit<Queue, 'name' | 'policy' | 'partition'>> {
  const { policy: _policy, partition: _partition, ...updatable } = wanted;
  return Object.fromEntries(Object.entries(updatable).filter(([key, value]) => stored[key] !== value));
}

/**
 * pg-boss statements run in our transaction. `Database` is typed for both drivers, so `execute` answers
 * `unknown` here; at run time both (node-postgres and PGlite) answer `{ rows }`, which the adapter reads.
 */
function within(tx: Database) {
  return { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) };
}

/**
 * pg-boss on the application's own database. Every process can send jobs; one that works them (the
 * worker role) or keeps their cron schedules (the scheduler role) says so in `role`.
 */
export function createJobQueue(options: {
  database: DatabaseHandle;
  role: JobQueueRole;
  logger: Logger;
}): JobQueue {
  const { database, role, logger } = options;
  const boss = new PgBoss(bossOptions(database, role));
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  // Every queue is unpartitioned, so every job is in pg-boss's shared table.
  const statistics = jobTableStatistics({
    analyze: () => database.db.execute(sql`analyze pgboss.job_common`),
    onError: (error) => logger.warn({ err: error }, 'the job table could not be analyzed'),
  });

  async function runOne(
    job: RegisteredJob,
    item: { id: string; data: unknown; retryCount: number; retryLimit: number },
  ) {
    const log = logger.child({ job: job.contract.name, jobId: item.id });
    try {
      log.debug('job started');
      await job.run(item.data, { id: item.id, retryCount: item.retryCount, retryLimit: item.retryLimit });
      log.debug('job finished');
      return 'completed' as const;
    } catch (error) {
      log.warn({ err: error, retryCount: item.retryCount }, 'job failed');
      return 'failed' as const;
    }
  }

  async function work(job: RegisteredJob) {
    // Each job of a batch settles on its own: one failed send does not retry the others.
    const polling = job.contract.work?.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS;
    await boss.work(
      job.contract.name,
      {
        notifyPollingIntervalSeconds: polling,
        ...job.contract.work,
        includeMetadata: true,
        perJobResults: true,
      },
      async (batch): Promise<JobResult[]> =>
        Promise.all(batch.map(async (item) => ({ id: item.id, status: await runOne(job, item) }))),
    );
  }

  const queue: JobQueue = {
    async start(jobs) {
      await boss.start();
      // A queue takes its contract's settings when created; one created by an earlier release is
      // brought up to them (a policy cannot change; pg-boss refuses that).
      const stored = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
      for (const { contract } of jobs) {
        const existing = stored.get(contract.name);
        if (!existing) await boss.createQueue(contract.name, contract.queue ?? {});
        else {
          const changed = changedQueueSettings({ ...existing }, contract.queue ?? {});
          if (Object.keys(changed).length > 0) await boss.updateQueue(contract.name, changed);
        }
        // pg-boss reads a queue's settings on first use and caches them. A first use inside our
        // transaction would query outside it, and PGlite (one connection) would wait on itself forever.
        await boss.getJobById(contract.name, randomUUID());
      }
      if (role.schedule) {
        for (const { contract } of jobs) {
          if (contract.cron) await boss.schedule(contract.name, contract.cron, {}, { tz: 'UTC' });
        }
      }
      if (role.work) for (const job of jobs) await work(job);
    },
    async stop(timeoutMs) {
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
      await statistics.stop();
    },
    async ping() {
      if (!(await boss.isInstalled())) throw new Error('job queue schema is not installed');
    },
    async send(job, payload, sendOptions = {}) {
      const id = await boss.send(job.name, job.payload.parse(payload) as object, {
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions.tx ? within(sendOptions.tx) : {}),
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
      });
      statistics.added(1);
      return id;
    },
    async sendMany(job, items, sendOptions = {}) {
      if (items.length === 0) return;
      const inserts = items.map((item) => ({
        data: job.payload.parse(item.payload) as object,
        ...(item.singletonKey ? { singletonKey: item.singletonKey } : {}),
      }));
      await boss.insert(job.name, inserts, sendOptions.tx ? within(sendOptions.tx) : {});
      statistics.added(inserts.length);
    },
  };
  return queue;
}
