import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import {
  deliveries,
  digestBuilds,
  digests,
  emailVerifications,
  issueRuns,
  mailRecipientLog,
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
import {
  purgeExpiredIssues,
  purgeExpiredIssuesJob,
  purgeExpiredTokens,
  purgeExpiredTokensJob,
  purgeSourceCache,
} from './housekeeping.jobs';

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

  it('deletes recipients logged more than a day ago (the mail limits look back a day) and keeps younger ones', async () => {
    await database.db.insert(mailRecipientLog).values([
      { email: 'old@example.com', kind: 'invitation', createdAt: minutes(-24 * 60 - 1) },
      { email: 'young@example.com', kind: 'issue', createdAt: minutes(-24 * 60 + 1) },
    ]);
    await purgeExpiredTokens({ db: database.db, clock, logger });
    const kept = await database.db.select().from(mailRecipientLog);
    expect(kept.map((row) => row.email)).toEqual(['young@example.com']);
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

describe('purging issues past their digest’s retention (docs/product.md §3 "Issue retention")', () => {
  const daysAgo = (count: number) => minutes(-count * 24 * 60);

  async function seedIssues() {
    const { db } = database;
    await db.delete(users);
    const [user] = await db
      .insert(users)
      .values({ email: `${randomUUID()}@example.com` })
      .returning();
    const userId = user?.userId ?? '';
    const digestKeeping = async (issueRetentionMonths: number) => {
      const [row] = await db
        .insert(digests)
        .values({ userId, name: `kept ${issueRetentionMonths} months`, sources: [], issueRetentionMonths })
        .returning();
      return row?.digestId ?? '';
    };
    const ids = {
      month: await digestKeeping(1),
      year: await digestKeeping(12),
      twoYears: await digestKeeping(24),
    };
    const issues: [string, number, Date][] = [
      [ids.month, 1, daysAgo(40)],
      [ids.month, 2, daysAgo(20)],
      [ids.year, 1, daysAgo(400)],
      [ids.year, 2, daysAgo(300)],
      [ids.twoYears, 1, daysAgo(400)],
      [ids.twoYears, 2, daysAgo(800)],
    ];
    const builds = await db
      .insert(digestBuilds)
      .values(
        issues.map(([digestId, buildNumber, createdAt]) => ({
          digestId,
          buildNumber,
          html: '<p>issue</p>',
          text: 'issue',
          createdAt,
        })),
      )
      .returning();
    const [expired, kept] = builds;
    for (const build of [expired, kept]) {
      await db.insert(deliveries).values({
        buildId: build?.buildId ?? '',
        digestId: ids.month,
        recipient: 'friend@example.com',
        kind: 'subscriber',
        state: 'sent',
        messageId: `<${randomUUID()}@digest.test>`,
      });
    }
    await db
      .insert(issueRuns)
      .values({ digestId: ids.month, slot: daysAgo(40), status: 'built', buildId: expired?.buildId ?? null });
    return ids;
  }

  async function remainingIssues() {
    const rows = await database.db
      .select({ name: digests.name, buildNumber: digestBuilds.buildNumber })
      .from(digestBuilds)
      .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId));
    return rows.map((row) => `${row.name} #${row.buildNumber}`).sort();
  }

  it('deletes each digest’s issues older than its own retention, with their deliveries, and keeps the rest', async () => {
    await seedIssues();
    await purgeExpiredIssues({ db: database.db, clock, logger });
    expect(await remainingIssues()).toEqual(['kept 1 months #2', 'kept 12 months #2', 'kept 24 months #1']);
    const deliveryRows = await database.db.select().from(deliveries);
    expect(deliveryRows).toHaveLength(1);
    // The run that built a deleted issue keeps its record, without the issue.
    const [run] = await database.db.select().from(issueRuns);
    expect(run).toMatchObject({ status: 'built', buildId: null });
  });

  it('deletes nothing on a second run, and nothing younger than a retention that was just lengthened', async () => {
    const ids = await seedIssues();
    await database.db.update(digests).set({ issueRetentionMonths: 3 }).where(eq(digests.digestId, ids.month));
    await purgeExpiredIssues({ db: database.db, clock, logger });
    await purgeExpiredIssues({ db: database.db, clock, logger });
    expect(await remainingIssues()).toEqual([
      'kept 1 months #1',
      'kept 1 months #2',
      'kept 12 months #2',
      'kept 24 months #1',
    ]);
  });

  it('is scheduled once a day and runs through the job queue worker', async () => {
    await seedIssues();
    expect(purgeExpiredIssuesJob.cron).toBe('40 3 * * *');
    const queue = createJobQueue({ database, role: { work: true, schedule: false }, logger });
    await queue.start([
      handlerFor(purgeExpiredIssuesJob, () => purgeExpiredIssues({ db: database.db, clock, logger })),
    ]);
    try {
      await queue.send(purgeExpiredIssuesJob, {});
      await expect.poll(remainingIssues, { timeout: 15_000, interval: 200 }).toHaveLength(3);
    } finally {
      await queue.stop(5_000);
    }
  });
});
