import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digests, issueRuns } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { delayToNextTick, runSchedulerTick } from './scheduler';

const HOUR = 60 * 60_000;
// Monday 2026-11-23, 05:00 UTC = 06:00 in Warsaw (UTC+1 in November).
const clock = testClock(new Date('2026-11-23T05:00:00Z'));
let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ clock });
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);
const tick = () =>
  runSchedulerTick({
    db: t.database.db,
    clock,
    logger: t.modules.issuesDeps.logger,
    queue: t.jobs,
    maxLatenessMs: HOUR,
  });

async function warsawUser(): Promise<TestUser> {
  const user = await signUp(t);
  const response = await api(user, 'PATCH', '/api/users/me', {
    timezone: { timezone: 'Europe/Warsaw', locale: 'pl-PL', offset: 60 },
  });
  expect(response.statusCode).toBe(200);
  return user;
}

async function nextRunOf(digestId: string) {
  const [row] = await t.database.db
    .select({ nextRunAt: digests.nextRunAt })
    .from(digests)
    .where(eq(digests.digestId, digestId));
  return row?.nextRunAt?.toISOString() ?? null;
}

const runsOf = (digestId: string) =>
  t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digestId)).orderBy(issueRuns.slot);

async function buildJobKeys(digestId: string) {
  const result = await t.database.db.execute(
    sql`select singleton_key from pgboss.job where name = 'issues.build' and singleton_key like ${`${digestId}:%`}`,
  );
  return (result as unknown as { rows: { singleton_key: string }[] }).rows.map((row) => row.singleton_key);
}

/** Moves every other test's due digests out of the way: each test counts only its own. */
async function pauseEveryone() {
  await t.database.db.update(digests).set({ nextRunAt: null, active: false });
}

describe('the scheduler', () => {
  it('queues a due digest once, keyed digestId:slot, and moves it to its next slot in the same step', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '07:00' });
    expect(digest.nextRunAt).toBe('2026-11-23T06:00:00.000Z');
    expect(digest.lastRun).toBeNull();

    clock.advance(HOUR + 5_000); // 06:00:05 UTC, 07:00:05 in Warsaw
    expect(await tick()).toEqual({ queued: 1, skipped: 0 });
    const [run] = await runsOf(digest.digestId);
    expect(run).toMatchObject({ status: 'queued', trigger: 'schedule' });
    expect(run?.slot.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(await buildJobKeys(digest.digestId)).toEqual([`${digest.digestId}:2026-11-23T06:00:00.000Z`]);
    expect(await nextRunOf(digest.digestId)).toBe('2026-11-24T06:00:00.000Z');

    expect(await tick()).toEqual({ queued: 0, skipped: 0 });
    expect(await runsOf(digest.digestId)).toHaveLength(1);
  });

  it('two schedulers ticking at once queue each slot once', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const made = await Promise.all([1, 2, 3].map(() => createDigest(t.app, user, { time: '09:00' })));
    await t.database.db
      .update(digests)
      .set({ nextRunAt: new Date(clock.now().getTime() - 1000) })
      .where(
        sql`${digests.digestId} in (${sql.join(
          made.map((digest) => sql`${digest.digestId}::uuid`),
          sql`, `,
        )})`,
      );
    const results = await Promise.all([tick(), tick()]);
    expect(results.reduce((sum, result) => sum + result.queued, 0)).toBe(3);
    for (const digest of made) {
      expect(await runsOf(digest.digestId)).toHaveLength(1);
      expect(await buildJobKeys(digest.digestId)).toHaveLength(1);
    }
  });

  it('never queues a slot that is already recorded (a scheduler that stopped after taking it)', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '23:00' });
    const slot = new Date(clock.now().getTime() - 60_000);
    await t.database.db.insert(issueRuns).values({ digestId: digest.digestId, slot, status: 'built' });
    await t.database.db.update(digests).set({ nextRunAt: slot }).where(eq(digests.digestId, digest.digestId));

    expect(await tick()).toEqual({ queued: 0, skipped: 0 });
    expect(await buildJobKeys(digest.digestId)).toEqual([]);
    expect(new Date((await nextRunOf(digest.digestId)) as string).getTime()).toBeGreaterThan(
      clock.now().getTime(),
    );
  });

  it('skips and records a slot found later than the maximum lateness, then waits for the next slot after now', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '07:00' });
    const slot = await nextRunOf(digest.digestId);
    // The server was down for three days past the slot: one skipped run, not three late issues.
    clock.advance(3 * 24 * HOUR + 2 * HOUR);
    expect(await tick()).toEqual({ queued: 0, skipped: 1 });
    const runs = await runsOf(digest.digestId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'skipped' });
    expect(runs[0]?.slot.toISOString()).toBe(slot);
    expect(runs[0]?.reason).toMatch(/not running at the scheduled time; skipped \d+ h late/);
    expect(await buildJobKeys(digest.digestId)).toEqual([]);
    // The owner sees why nothing arrived.
    const later = await t.sessionFor(user.userId);
    const detail = await api(
      { headers: { authorization: `Bearer ${later.accessToken}` } },
      'GET',
      `/api/digests/${digest.digestId}`,
    );
    expect(detail.json().digest.lastRun).toEqual({ slot, status: 'skipped', reason: runs[0]?.reason });
    const next = new Date((await nextRunOf(digest.digestId)) as string);
    expect(next.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(next.getTime() - clock.now().getTime()).toBeLessThanOrEqual(24 * HOUR);
  });

  it('builds a slot that is late but within the maximum lateness', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '10:00' });
    const slot = new Date((await nextRunOf(digest.digestId)) as string);
    clock.advance(slot.getTime() - clock.now().getTime() + 40 * 60_000);
    expect(await tick()).toEqual({ queued: 1, skipped: 0 });
  });

  it('does not take a paused digest; resuming starts from the next slot, not the missed ones', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '07:00' });
    const paused = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    expect(paused.json()).toMatchObject({ digest: { nextRunAt: null } });
    clock.advance(5 * 24 * HOUR);
    expect(await tick()).toEqual({ queued: 0, skipped: 0 });

    const later = await t.sessionFor(user.userId); // the first session's access token has expired
    const resumed = await api(
      { headers: { ...user.headers, authorization: `Bearer ${later.accessToken}` } },
      'PATCH',
      `/api/digests/${digest.digestId}`,
      { active: true },
    );
    const next = new Date(resumed.json().digest.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(next.getTime() - clock.now().getTime()).toBeLessThanOrEqual(24 * HOUR);
    expect(await tick()).toEqual({ queued: 0, skipped: 0 });
    expect(await runsOf(digest.digestId)).toEqual([]);
  });

  it("recomputes the next run when the schedule or the owner's zone changes", async () => {
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '07:00', scheduleType: 'weekly', weekDay: 3 });
    const at = (iso: string) => new Date(iso).toISOString();
    const weekly = new Date(digest.nextRunAt as string);
    expect(weekly.getUTCDay()).toBe(3);
    expect(weekly.toISOString()).toMatch(/T06:00:00.000Z$/);

    const changed = await api(user, 'PATCH', `/api/digests/${digest.digestId}`, { time: '08:30' });
    expect(changed.json().digest.nextRunAt).toMatch(/T07:30:00.000Z$/);

    await api(user, 'PATCH', '/api/users/me', {
      timezone: { timezone: 'America/New_York', locale: 'en-US', offset: -300 },
    });
    const moved = await nextRunOf(digest.digestId);
    expect(moved).toMatch(/T13:30:00.000Z$/); // 08:30 in New York (UTC−5 in winter)
    expect(at(moved as string)).not.toBe(changed.json().digest.nextRunAt);
    const detail = await api(user, 'GET', `/api/digests/${digest.digestId}`);
    expect(detail.json().digest).toMatchObject({ nextRunAt: moved, timeZone: 'America/New_York' });
  });

  it('gives an active digest without a next run one at the next tick', async () => {
    await pauseEveryone();
    const user = await warsawUser();
    const digest = await createDigest(t.app, user, { time: '07:00' });
    await t.database.db.update(digests).set({ nextRunAt: null }).where(eq(digests.digestId, digest.digestId));
    await tick();
    expect(await nextRunOf(digest.digestId)).toMatch(/T06:00:00.000Z$/);
  });
});

describe('when the scheduler ticks next', () => {
  const at = (iso: string) => new Date(iso);

  it('ticks at the minute when the minute begins before the interval is over, so a slot is not found late', () => {
    expect(delayToNextTick(at('2026-11-23T05:00:57.500Z'), 5_000)).toBe(2_520);
    expect(delayToNextTick(at('2026-11-23T05:00:59.990Z'), 5_000)).toBe(30);
  });

  it('waits the interval when no minute begins sooner', () => {
    expect(delayToNextTick(at('2026-11-23T05:00:00.020Z'), 5_000)).toBe(5_000);
    expect(delayToNextTick(at('2026-11-23T05:00:54.980Z'), 5_000)).toBe(5_000);
  });
});
