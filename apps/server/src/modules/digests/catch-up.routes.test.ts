import { CATCH_UP_MESSAGES, DIGEST_MESSAGES, digestResponseSchema } from '@digest/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digests, issueRuns } from '#server/db/schema';
import { signUp, startTestApp, type TestApp } from '#server/modules/users/test-support';
import { callerOf, createDigest, DATE, HN, REDDIT, RSS } from './test-support';

// Issue 17 "While you were away": PATCH /api/digests/{id} { active: true, catchUp: true }.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);
const DAY_MS = 86_400_000;

async function rowOf(digestId: string) {
  const [row] = await t.database.db.select().from(digests).where(eq(digests.digestId, digestId));
  return row;
}

const runsOf = (digestId: string) =>
  t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digestId));

async function buildJobsOf(digestId: string) {
  const result = await t.database.db.execute(
    sql`select singleton_key, data->>'runId' as run_id from pgboss.job where name = 'issues.build' and singleton_key like ${`${digestId}:%`}`,
  );
  return (result as unknown as { rows: { singleton_key: string; run_id: string }[] }).rows;
}

/** A digest of a new user, paused `daysAgo` days ago (as a pause then would have recorded it). */
async function pausedDigest(daysAgo: number, body: object = {}) {
  const user = await signUp(t);
  const digest = await createDigest(t.app, user, { sources: [RSS, HN, DATE], ...body });
  const pausedAt = new Date(Date.now() - daysAgo * DAY_MS);
  await t.database.db
    .update(digests)
    .set({ active: false, nextRunAt: null, pausedAt })
    .where(eq(digests.digestId, digest.digestId));
  return { user, digestId: digest.digestId, pausedAt };
}

describe('a pause records when it began', () => {
  it('pausing sets pausedAt, pausing again keeps the first time, resuming clears it', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user);
    expect(digest.pausedAt).toBeNull();
    const before = Date.now();
    const paused = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    const pausedAt = digestResponseSchema.parse(paused.json()).digest.pausedAt;
    expect(Date.parse(pausedAt ?? '')).toBeGreaterThanOrEqual(before - 1);
    const again = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, {
      active: false,
      name: 'Still',
    });
    expect(again.json().digest.pausedAt).toBe(pausedAt);
    const list = await api(user, 'GET', '/api/digests');
    expect(list.json().digests[0].pausedAt).toBe(pausedAt);
    const resumed = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { active: true });
    expect(resumed.json().digest).toMatchObject({ active: true, pausedAt: null });
    expect((await rowOf(digest.digestId))?.pausedAt).toBeNull();
  });

  it('a digest created paused, and a copy (always paused), are paused from their creation', async () => {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, { active: false });
    expect(digest.pausedAt).toBe(digest.createdAt);
    const copy = await api(user, 'POST', `/api/digests/duplicate/${digest.digestId}`);
    expect(copy.json().digest.pausedAt).toBe(copy.json().digest.createdAt);
  });
});

describe('resuming with one catch-up issue', () => {
  it('resumes on the normal schedule and queues exactly one catch-up build of the paused window', async () => {
    const { user, digestId, pausedAt } = await pausedDigest(21);
    const response = await api(user, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true });
    expect(response.statusCode).toBe(200);
    const { digest } = digestResponseSchema.parse(response.json());
    expect(digest).toMatchObject({ active: true, pausedAt: null });
    // The next scheduled slot is the first after now: the 21 missed days are not sent one by one.
    expect(Date.parse(digest.nextRunAt ?? '')).toBeGreaterThan(Date.now());
    expect(Date.parse(digest.nextRunAt ?? '')).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const runs = await runsOf(digestId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'catch_up', status: 'queued', catchUpSince: pausedAt });
    expect(Math.abs((runs[0]?.slot.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(await buildJobsOf(digestId)).toEqual([
      { singleton_key: `${digestId}:catch-up:${pausedAt.toISOString()}`, run_id: runs[0]?.runId },
    ]);
  });

  it('a double click sends one: the second resume finds the digest running and changes nothing', async () => {
    const { user, digestId } = await pausedDigest(10);
    const answers = await Promise.all(
      [1, 2].map(() => api(user, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
    const refused = answers.find((answer) => answer.statusCode === 422);
    expect(refused?.json()).toEqual({ code: 'CATCH_UP_NOT_OFFERED', message: CATCH_UP_MESSAGES.notPaused });
    expect(await runsOf(digestId)).toHaveLength(1);
    expect(await buildJobsOf(digestId)).toHaveLength(1);
  });

  const tooShort: [string, object, number][] = [
    ['a daily digest paused for 20 hours', { scheduleType: 'daily' }, 20 / 24],
    ['a weekly digest paused for 6 days', { scheduleType: 'weekly', weekDay: 3 }, 6],
    ['a monthly digest paused for 27 days', { scheduleType: 'monthly', monthDay: 2 }, 27],
  ];
  it.each(tooShort)('refuses %s with 422 and changes nothing', async (_label, schedule, days) => {
    const { user, digestId } = await pausedDigest(days, schedule);
    const before = await rowOf(digestId);
    const response = await api(user, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'CATCH_UP_NOT_OFFERED',
      message: CATCH_UP_MESSAGES.notLongEnough,
    });
    expect(await rowOf(digestId)).toEqual(before);
    expect(await runsOf(digestId)).toEqual([]);
    expect(await buildJobsOf(digestId)).toEqual([]);
  });

  it('accepts a weekly digest paused for 8 days and a monthly one paused for 32', async () => {
    for (const [schedule, days] of [
      [{ scheduleType: 'weekly' }, 8],
      [{ scheduleType: 'monthly' }, 32],
    ] as const) {
      const { user, digestId } = await pausedDigest(days, schedule);
      const response = await api(user, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true });
      expect(response.statusCode).toBe(200);
      expect(await runsOf(digestId)).toHaveLength(1);
    }
  });

  it('refuses a digest that is running, or whose sources cannot catch up, with 422', async () => {
    const user = await signUp(t);
    const running = await createDigest(t.app, user);
    const response = await api(user, 'PATCH', `/api/digests/${running.digestId}`, {
      active: true,
      catchUp: true,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(CATCH_UP_MESSAGES.notPaused);

    const { user: owner, digestId } = await pausedDigest(30, { sources: [DATE, DATE, REDDIT] });
    const before = await rowOf(digestId);
    const none = await api(owner, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(CATCH_UP_MESSAGES.noSources);
    expect(await rowOf(digestId)).toEqual(before);
    expect(await runsOf(digestId)).toEqual([]);
  });

  const malformed: [string, object, string][] = [
    ['catchUp without a resume', { catchUp: true }, DIGEST_MESSAGES.catchUpOnResume],
    ['catchUp with a pause', { active: false, catchUp: true }, DIGEST_MESSAGES.catchUpOnResume],
    ['catchUp false', { active: true, catchUp: false }, 'catchUp can only be true'],
    ['catchUp as text', { active: true, catchUp: 'yes' }, 'catchUp can only be true'],
  ];
  it.each(malformed)('refuses %s with 400 and changes nothing', async (_label, body, message) => {
    const { user, digestId } = await pausedDigest(21);
    const before = await rowOf(digestId);
    const response = await api(user, 'PATCH', `/api/digests/${digestId}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await rowOf(digestId)).toEqual(before);
    expect(await runsOf(digestId)).toEqual([]);
  });

  it('answers 404 for another user’s digest and 401 without a token, changing nothing', async () => {
    const { digestId } = await pausedDigest(21);
    const before = await rowOf(digestId);
    const other = await signUp(t);
    const stranger = await api(other, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe('DIGEST_NOT_FOUND');
    const anonymous = await api(null, 'PATCH', `/api/digests/${digestId}`, { active: true, catchUp: true });
    expect(anonymous.statusCode).toBe(401);
    expect(await rowOf(digestId)).toEqual(before);
    expect(await runsOf(digestId)).toEqual([]);
  });
});
