import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import {
  emailVerifications,
  oauthStates,
  passwordResets,
  refreshTokens,
  releasedUsernames,
  sessions,
  sourceCache,
  users,
} from '#server/db/schema';
import { createJobQueue, handlerFor } from '#server/platform/jobs/job-queue';
import { createTestDatabase } from '#server-test/test-database';
import { purgeExpiredTokens, purgeExpiredTokensJob, purgeSourceCache } from './housekeeping.jobs';

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
  await db.insert(emailVerifications).values([
    { userId, purpose: 'sign-up', email: 'a@example.com', tokenHash: 'expired-link', expiresAt: minutes(-1) },
    { userId, purpose: 'sign-up', email: 'a@example.com', tokenHash: 'live-link', expiresAt: minutes(60) },
  ]);
}

const remaining = async () => ({
  refresh: (await database.db.select().from(refreshTokens)).map((row) => row.tokenHash),
  resets: (await database.db.select().from(passwordResets)).map((row) => row.tokenHash),
  links: (await database.db.select().from(emailVerifications)).map((row) => row.tokenHash),
  sessions: (await database.db.select().from(sessions)).length,
  states: (await database.db.select().from(oauthStates)).map((row) => row.stateHash),
});

describe('purging expired tokens', () => {
  it('deletes sessions, refresh tokens, password resets, e-mail verification links and OAuth states past their expiry and keeps live ones', async () => {
    await seedTokens();
    await purgeExpiredTokens({ db: database.db, clock, logger });
    expect(await remaining()).toEqual({
      refresh: ['live-refresh'],
      resets: ['live-reset'],
      links: ['live-link'],
      sessions: 1,
      states: ['live-state'],
    });
  });

  it('deletes reservations of given-up usernames older than 30 days and keeps younger ones', async () => {
    await seedTokens();
    const [user] = await database.db.select().from(users);
    const userId = user?.userId ?? '';
    const days = (count: number) => minutes(count * 24 * 60);
    await database.db.insert(releasedUsernames).values([
      { usernameLower: 'expired', userId, releasedAt: days(-31) },
      { usernameLower: 'held', userId, releasedAt: days(-29) },
    ]);
    await purgeExpiredTokens({ db: database.db, clock, logger });
    const kept = await database.db.select().from(releasedUsernames);
    expect(kept.map((row) => row.usernameLower)).toEqual(['held']);
  });

  it('is scheduled every 15 minutes and runs through the job queue worker', async () => {
    await seedTokens();
    expect(purgeExpiredTokensJob.cron).toBe('*/15 * * * *');
    const queue = createJobQueue({ database, role: { work: true, schedule: false }, logger });
    await queue.start([
      handlerFor(purgeExpiredTokensJob, () => purgeExpiredTokens({ db: database.db, clock, logger })),
    ]);
    try {
      await queue.send(purgeExpiredTokensJob, {});
      await expect
        .poll(async () => (await remaining()).refresh, { timeout: 15_000, interval: 200 })
        .toEqual(['live-refresh']);
      expect((await remaining()).resets).toEqual(['live-reset']);
    } finally {
      await queue.stop(5_000);
    }
  });
});

describe('purging the source cache', () => {
  const hours = (count: number) => minutes(count * 60);
  const row = (keyHash: string, times: { fetchedAt: Date; expiresAt: Date }, size = 100) => ({
    keyHash,
    status: 200,
    headers: { etag: '"v1"' },
    body: Buffer.alloc(size),
    size,
    ...times,
  });
  const cachedKeys = async () =>
    (await database.db.select().from(sourceCache)).map((cached) => cached.keyHash).sort();

  it('deletes rows stale for longer than the grace period and keeps those that can still be revalidated', async () => {
    await database.db.delete(sourceCache);
    await database.db
      .insert(sourceCache)
      .values([
        row('fresh', { fetchedAt: minutes(-5), expiresAt: minutes(5) }),
        row('stale-within-grace', { fetchedAt: hours(-5), expiresAt: hours(-4) }),
        row('stale-past-grace', { fetchedAt: hours(-26), expiresAt: hours(-25) }),
      ]);
    await purgeSourceCache({ db: database.db, clock, logger });
    expect(await cachedKeys()).toEqual(['fresh', 'stale-within-grace']);
  });

  it('deletes the least recently fetched rows beyond the size bound', async () => {
    await database.db.delete(sourceCache);
    await database.db
      .insert(sourceCache)
      .values([
        row('newest', { fetchedAt: minutes(-1), expiresAt: minutes(60) }, 400),
        row('middle', { fetchedAt: minutes(-2), expiresAt: minutes(60) }, 400),
        row('oldest', { fetchedAt: minutes(-3), expiresAt: minutes(60) }, 400),
      ]);
    const limits = { graceMs: 60_000, maxBytes: 1_000 };
    await purgeSourceCache({ db: database.db, clock, logger }, limits);
    expect(await cachedKeys()).toEqual(['middle', 'newest']);
  });
});
