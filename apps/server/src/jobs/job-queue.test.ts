import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../../test/test-database';
import type { DatabaseHandle } from '../db/client';
import { createJobQueue, type JobDefinition } from './job-queue';

const logger = pino({ level: 'silent' });
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('job queue', () => {
  it('refuses to send a payload that breaks the job contract', async () => {
    const job: JobDefinition<{ digestId: string }> = {
      name: 'test.contract',
      payload: z.object({ digestId: z.uuid() }),
      handle: async () => {},
    };
    const queue = createJobQueue({ database, roles: [], logger, jobs: [job as JobDefinition<unknown>] });
    await queue.start();
    try {
      await expect(queue.send(job, { digestId: 'not-a-uuid' })).rejects.toThrow();
    } finally {
      await queue.stop(1_000);
    }
  });

  it('lets a running job finish before stop() resolves', async () => {
    const events: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const job: JobDefinition<{ n: number }> = {
      name: 'test.slow',
      payload: z.object({ n: z.number() }),
      async handle({ n }) {
        events.push(`start ${n}`);
        started();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        events.push(`end ${n}`);
      },
    };
    const queue = createJobQueue({
      database,
      roles: ['worker'],
      logger,
      jobs: [job as JobDefinition<unknown>],
    });
    await queue.start();
    await queue.send(job, { n: 1 });
    await running;
    await queue.stop(10_000);
    events.push('stopped');
    expect(events).toEqual(['start 1', 'end 1', 'stopped']);
  });
});
