import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '#server/db/client';
import { createTestDatabase } from '#server-test/test-database';
import {
  createJobQueue,
  defineJob,
  handlerFor,
  type JobContract,
  type JobHandler,
  type JobQueue,
} from './job-queue';

const logger = pino({ level: 'silent' });
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Starts a queue with `job` and its handler, worked or only sent to, runs `body`, and always stops the queue. */
async function withQueue<Payload>(
  job: JobContract<Payload>,
  handle: JobHandler<Payload>,
  role: { work: boolean },
  body: (queue: JobQueue) => Promise<void>,
) {
  const queue = createJobQueue({ database, role: { ...role, schedule: false }, logger });
  await queue.start([handlerFor(job, handle)]);
  try {
    await body(queue);
  } finally {
    await queue.stop(1_000);
  }
}

describe('job queue', () => {
  it('refuses to send a payload that breaks the job contract', async () => {
    const job = defineJob({ name: 'test.contract', payload: z.object({ digestId: z.uuid() }) });
    await withQueue(
      job,
      async () => {},
      { work: false },
      async (queue) => {
        await expect(queue.send(job, { digestId: 'not-a-uuid' })).rejects.toThrow();
      },
    );
  });

  it('lets a running job finish before stop() resolves', async () => {
    const events: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const job = defineJob({ name: 'test.slow', payload: z.object({ n: z.number() }) });
    const queue = createJobQueue({ database, role: { work: true, schedule: false }, logger });
    await queue.start([
      handlerFor(job, async ({ n }) => {
        events.push(`start ${n}`);
        started();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        events.push(`end ${n}`);
      }),
    ]);
    await queue.send(job, { n: 1 });
    await running;
    await queue.stop(10_000);
    events.push('stopped');
    expect(events).toEqual(['start 1', 'end 1', 'stopped']);
  });

  it('refuses a second send of one singleton key on an exclusive queue (one slot, one build)', async () => {
    const job = defineJob({
      name: 'test.exclusive',
      payload: z.object({ n: z.number() }),
      queue: { policy: 'exclusive' },
    });
    await withQueue(
      job,
      async () => {},
      { work: false },
      async (queue) => {
        const first = await queue.send(job, { n: 1 }, { singletonKey: 'digest-1:2026-11-22T07:00:00.000Z' });
        const second = await queue.send(job, { n: 1 }, { singletonKey: 'digest-1:2026-11-22T07:00:00.000Z' });
        const other = await queue.send(job, { n: 2 }, { singletonKey: 'digest-1:2026-11-23T07:00:00.000Z' });
        expect(first).toEqual(expect.any(String));
        expect(second).toBeNull();
        expect(other).toEqual(expect.any(String));
      },
    );
  });

  it('enqueues within a transaction: a rollback leaves no job, a commit leaves it', async () => {
    const handled: number[] = [];
    const job = defineJob({
      name: 'test.transactional',
      payload: z.object({ n: z.number() }),
      work: { pollingIntervalSeconds: 0.5 },
    });
    const handle = async ({ n }: { n: number }) => {
      handled.push(n);
    };
    await withQueue(job, handle, { work: true }, async (queue) => {
      await expect(
        database.db.transaction(async (tx) => {
          await queue.send(job, { n: 1 }, { tx });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await database.db.transaction(async (tx) => {
        await queue.sendMany(job, [{ payload: { n: 2 } }, { payload: { n: 3 } }], { tx });
      });
      await expect.poll(() => [...handled].sort(), { timeout: 10_000 }).toEqual([2, 3]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(handled).not.toContain(1);
    });
  });

  it('settles each job of a batch on its own and tells the handler its attempt', async () => {
    const attempts: { n: number; retryCount: number; retryLimit: number }[] = [];
    const job = defineJob({
      name: 'test.batch',
      payload: z.object({ n: z.number() }),
      queue: { retryLimit: 1, retryDelay: 0 },
      work: { batchSize: 5, pollingIntervalSeconds: 0.5 },
    });
    const handle: JobHandler<{ n: number }> = async ({ n }, attempt) => {
      attempts.push({ n, retryCount: attempt?.retryCount ?? -1, retryLimit: attempt?.retryLimit ?? -1 });
      if (n === 2) throw new Error('temporary');
    };
    await withQueue(job, handle, { work: true }, async (queue) => {
      await queue.sendMany(
        job,
        [1, 2, 3].map((n) => ({ payload: { n } })),
      );
      await expect.poll(() => attempts.length, { timeout: 15_000 }).toBe(4);
      expect(attempts.filter((a) => a.n === 1)).toEqual([{ n: 1, retryCount: 0, retryLimit: 1 }]);
      expect(attempts.filter((a) => a.n === 3)).toHaveLength(1);
      expect(attempts.filter((a) => a.n === 2).map((a) => a.retryCount)).toEqual([0, 1]);
    });
  });

  it('wakes a worker when a job of a queue that asks for it is committed, long before its next poll', async () => {
    const handled: number[] = [];
    const job = defineJob({
      name: 'test.woken',
      payload: z.object({ n: z.number() }),
      queue: { notify: true },
      // The next poll after the worker's first fetch would come 60 s later.
      work: { pollingIntervalSeconds: 60 },
    });
    await withQueue(
      job,
      async ({ n }) => {
        handled.push(n);
      },
      { work: true },
      async (queue) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await database.db.transaction(async (tx) => {
          await queue.send(job, { n: 1 }, { tx });
        });
        await expect.poll(() => handled, { timeout: 15_000 }).toEqual([1]);
      },
    );
  });

  it("brings a queue an earlier release created up to its contract's settings at start", async () => {
    const name = 'test.upgraded';
    const before = defineJob({ name, payload: z.object({}), queue: { retryLimit: 1 } });
    await withQueue(
      before,
      async () => {},
      { work: false },
      async () => {},
    );
    const after = defineJob({ name, payload: z.object({}), queue: { retryLimit: 3, notify: true } });
    await withQueue(
      after,
      async () => {},
      { work: false },
      async () => {},
    );
    const { rows } = (await database.db.execute(
      sql`select retry_limit, notify from pgboss.queue where name = ${name}`,
    )) as unknown as { rows: { retry_limit: number; notify: boolean }[] };
    expect(rows).toEqual([{ retry_limit: 3, notify: true }]);
  });

  it('brings the job table’s statistics up to date once a thousand jobs were sent (PostgreSQL plans pg-boss’s statements from them)', async () => {
    const job = defineJob({ name: 'test.statistics', payload: z.object({ n: z.number() }) });
    const estimate = async () => {
      const { rows } = (await database.db.execute(
        sql`select reltuples::int as rows from pg_class where oid = 'pgboss.job_common'::regclass`,
      )) as unknown as { rows: { rows: number }[] };
      return rows[0]?.rows ?? -1;
    };
    const before = await estimate();
    await withQueue(
      job,
      async () => {},
      { work: false },
      async (queue) => {
        await queue.sendMany(
          job,
          Array.from({ length: 1_200 }, (_, n) => ({ payload: { n } })),
        );
        await expect.poll(estimate, { timeout: 15_000 }).toBeGreaterThanOrEqual(Math.max(before, 0) + 1_200);
      },
    );
  });
});
