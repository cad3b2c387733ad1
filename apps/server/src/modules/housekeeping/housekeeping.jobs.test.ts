import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import type { DatabaseHandle } from '../../db/client';
import { oauthStates, passwordResets, refreshTokens, sessions, users } from '../../db/schema';
import { createJobQueue } from '../../jobs/job-queue';
import { purgeExpiredTokensJob } from './housekeeping.jobs';

const logger = pino({ level: 'silent' });
const now = new Date('2026-11-21T12:00:00Z');
const clock = { now: () => now };
const minutes = (count: number) => new Date(now.getTime() + count * 60_000);

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function seedTokens() {
  const { db } = database;
  await db.delete(users);
  await db.delete(oauthStates);
  const [user] = await db
    .insert(users)
    .values({ email: `${randomUUID()}@example.com` })
    .returning();
  const userId = user?.userId ?? '';
  const familyId = randomUUID();
  await db.insert(sessions).values([
    { sessionId: familyId, userId, expiresAt: minutes(60 * 24) },
    { userId, expiresAt: minutes(-5) },
  ]);
  await db.insert(oauthStates).values([
    {
      stateHash: 'expired-state',
      provider: 'google',
      purpose: 'signin',
      codeVerifier: 'v',
      expiresAt: minutes(-1),
    },
    {
      stateHash: 'live-state',
      provider: 'google',
      purpose: 'signin',
      codeVerifier: 'v',
      expiresAt: minutes(9),
    },
  ]);
  await db.insert(refreshTokens).values([
    { userId, familyId, tokenHash: 'expired-refresh', expiresAt: minutes(-1) },
    { userId, familyId, tokenHash: 'live-refresh', expiresAt: minutes(60) },
  ]);
  await db.insert(passwordResets).values([
    { userId, tokenHash: 'expired-reset', expiresAt: minutes(-30) },
    { userId, tokenHash: 'live-reset', expiresAt: minutes(10) },
  ]);
}

const remaining = async () => ({
  refresh: (await database.db.select().from(refreshTokens)).map((row) => row.tokenHash),
  resets: (await database.db.select().from(passwordResets)).map((row) => row.tokenHash),
  sessions: (await database.db.select().from(sessions)).length,
  states: (await database.db.select().from(oauthStates)).map((row) => row.stateHash),
});

describe('purging expired tokens', () => {
  it('deletes sessions, refresh tokens, password resets and OAuth states past their expiry and keeps live ones', async () => {
    await seedTokens();
    await purgeExpiredTokensJob({ db: database.db, clock, logger }).handle({});
    expect(await remaining()).toEqual({
      refresh: ['live-refresh'],
      resets: ['live-reset'],
      sessions: 1,
      states: ['live-state'],
    });
  });

  it('is scheduled every 15 minutes and runs through the job queue worker', async () => {
    await seedTokens();
    const job = purgeExpiredTokensJob({ db: database.db, clock, logger });
    expect(job.cron).toBe('*/15 * * * *');
    const queue = createJobQueue({ database, roles: ['worker'], logger, jobs: [job] });
    await queue.start();
    try {
      await queue.send(job, {});
      await expect
        .poll(async () => (await remaining()).refresh, { timeout: 15_000, interval: 200 })
        .toEqual(['live-refresh']);
      expect((await remaining()).resets).toEqual(['live-reset']);
    } finally {
      await queue.stop(5_000);
    }
  });
});
