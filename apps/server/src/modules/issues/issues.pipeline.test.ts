import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digests, issueRuns } from '#server/db/schema';
import { createDigest } from '#server/modules/digests/test-support';
import { receiveTestNewsletter } from '#server/modules/newsletters/test-support';
import { addFriends } from '#server/modules/subscribers/test-support';
import { signUp } from '#server/modules/users/test-support';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { runSchedulerTick } from './scheduler';

// The whole way, with the real queue and workers: a due slot → the scheduler → a build job → delivery
// jobs → a real SMTP server.
let fakes: FakeProviders;
let smtp: TestSmtpServer;
let t: TestApi;
beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer();
  t = await startTestApi({ fakes, roles: ['worker'], smtp });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

describe('an issue on time', () => {
  it('goes from a due slot to the inboxes of the owner and each subscriber, once', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      name: 'Pipeline',
      sources: [
        { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml` },
        { type: 'HACKER_NEWS' },
        { type: 'DATE' },
      ],
    });
    await addFriends(t.database.db, digest.digestId, ['reader@example.com']);
    const slot = new Date(Date.now() - 30_000);
    await t.database.db.update(digests).set({ nextRunAt: slot }).where(eq(digests.digestId, digest.digestId));

    const deps = t.modules.issuesDeps;
    const tick = () => runSchedulerTick({ ...deps, queue: t.jobs, maxLatenessMs: 3_600_000 });
    expect((await tick()).queued).toBeGreaterThanOrEqual(1);
    await tick();

    const mine = () => smtp.received.filter((mail) => mail.parsed.subject === 'Digest “Pipeline”, issue 1');
    await expect.poll(() => mine().length, { timeout: 20_000, interval: 200 }).toBe(2);
    expect(
      mine()
        .flatMap((mail) => mail.rcptTo)
        .sort(),
    ).toEqual([owner.email, 'reader@example.com'].sort());
    const rows = await t.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.digestId, digest.digestId));
    await expect
      .poll(async () =>
        (await t.database.db.select().from(deliveries).where(eq(deliveries.digestId, digest.digestId))).map(
          (row) => row.state,
        ),
      )
      .toEqual(['sent', 'sent']);
    expect(rows).toHaveLength(2);
    const [run] = await t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digest.digestId));
    expect(run?.slot.toISOString()).toBe(slot.toISOString());
    expect(run?.status).toBe('built');

    // Nothing more arrives: no second build of the slot, no second send.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(mine()).toHaveLength(2);
  });
});

describe('a newsletter in issues on time', () => {
  it('the next scheduled issue carries a newsletter received since the last; the one after does not again', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      name: 'Letters on time',
      // "Only new items" off for Hacker News: issue 2 is built for its (unchanged) stories.
      sources: [{ type: 'HACKER_NEWS', onlyNew: false }, { type: 'DATE' }, { type: 'NEWSLETTERS' }],
    });
    await receiveTestNewsletter(t.database.db, owner.userId, {
      subject: 'Scheduled Letter #1',
      text: 'Carried by the scheduled issue',
    });
    const deps = t.modules.issuesDeps;
    const tick = () => runSchedulerTick({ ...deps, queue: t.jobs, maxLatenessMs: 3_600_000 });
    const issueMail = (n: number) =>
      smtp.received.find((mail) => mail.parsed.subject === `Digest “Letters on time”, issue ${n}`);
    for (const n of [1, 2]) {
      const slot = new Date(Date.now() - 30_000 + n);
      await t.database.db
        .update(digests)
        .set({ nextRunAt: slot })
        .where(eq(digests.digestId, digest.digestId));
      await tick();
      await expect.poll(() => issueMail(n), { timeout: 20_000, interval: 200 }).toBeDefined();
    }
    expect(issueMail(1)?.parsed.html).toContain('Scheduled Letter #1');
    expect(issueMail(1)?.parsed.text).toContain('Carried by the scheduled issue');
    // Built for its Hacker News, without the newsletter it already carried.
    expect(issueMail(2)?.parsed.html).not.toContain('Scheduled Letter #1');
    expect(issueMail(2)?.parsed.html).toContain('No new newsletters');
  });
});

describe('an issue whose conditions are not met (docs/product.md §3 "Conditions")', () => {
  const WEATHER = { type: 'WEATHER', latitude: 52.2298, longitude: 21.0118, locationName: 'Warsaw' } as const;
  const NO_RAIN = /^Skipped: no rain expected \(\d+ % < 100 %\)\.$/;

  async function dueNow(digestId: string) {
    const slot = new Date(Date.now() - 30_000);
    await t.database.db.update(digests).set({ nextRunAt: slot }).where(eq(digests.digestId, digestId));
    const deps = t.modules.issuesDeps;
    await runSchedulerTick({ ...deps, queue: t.jobs, maxLatenessMs: 3_600_000 });
    const run = async () =>
      (await t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digestId)))[0];
    await expect
      .poll(async () => (await run())?.status, { timeout: 20_000, interval: 200 })
      .not.toBe('queued');
    return run();
  }

  it('is not built or mailed: the run is skipped with the reason, the digest page reads it, Send latest says it', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      name: 'Rain only',
      sources: [
        { ...WEATHER, conditions: { rainAtLeast: 100 } },
        // No story has that many points: its block is empty, so it has nothing to say either.
        { type: 'HACKER_NEWS', conditions: { minPoints: 1_000_000 } },
        { type: 'DATE' },
      ],
    });
    const run = await dueNow(digest.digestId);
    expect(run?.status).toBe('skipped');
    expect(run?.reason).toMatch(NO_RAIN);
    expect(run?.buildId).toBeNull();

    const page = await t.app.inject({
      method: 'GET',
      url: `/api/digests/${digest.digestId}`,
      headers: owner.headers,
    });
    expect(page.json().digest.builds).toEqual([]);
    expect(page.json().digest.lastRun).toMatchObject({ status: 'skipped', reason: run?.reason });

    const manual = await t.app.inject({
      method: 'POST',
      url: `/api/digests/rebuild/${digest.digestId}`,
      headers: owner.headers,
    });
    expect(manual.statusCode).toBe(422);
    expect(manual.json()).toMatchObject({ code: 'CONDITIONS_NOT_MET' });
    expect(manual.json().message).toMatch(NO_RAIN);
    expect(
      await t.database.db.select().from(deliveries).where(eq(deliveries.digestId, digest.digestId)),
    ).toEqual([]);
    expect(smtp.received.some((mail) => mail.parsed.subject?.includes('Rain only'))).toBe(false);
  });

  it('is skipped while fewer sources than the digest asks for have something to say, and sent once enough do', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      name: 'Three voices',
      minSourcesToSend: 3,
      sources: [
        { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml`, onlyNew: false },
        { type: 'HACKER_NEWS', onlyNew: false },
        { type: 'DATE' },
        { ...WEATHER, conditions: { rainAtLeast: 100 } },
      ],
    });
    expect(digest.minSourcesToSend).toBe(3);
    const run = await dueNow(digest.digestId);
    expect(run?.status).toBe('skipped');
    expect(run?.reason).toMatch(
      /^Skipped: 2 of 4 sources had something to say, at least 3 needed \(no rain expected \(\d+ % < 100 %\)\)\.$/,
    );

    const lowered = await t.app.inject({
      method: 'PATCH',
      url: `/api/digests/${digest.digestId}`,
      headers: owner.headers,
      payload: { minSourcesToSend: 2 },
    });
    expect(lowered.statusCode).toBe(200);
    const manual = await t.app.inject({
      method: 'POST',
      url: `/api/digests/rebuild/${digest.digestId}`,
      headers: owner.headers,
    });
    expect(manual.statusCode).toBe(200);
    await expect
      .poll(() => smtp.received.some((mail) => mail.parsed.subject === 'Digest “Three voices”, issue 1'), {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(true);
    const mail = smtp.received.find((item) => item.parsed.subject === 'Digest “Three voices”, issue 1');
    // The weather, whose condition was not met, is left out of the issue.
    expect(mail?.parsed.text).not.toContain('Warsaw');
    expect(mail?.parsed.text).toContain('Hacker News');
  });

  it.each([
    [
      {
        sources: [
          { ...WEATHER, conditions: { rainAtLeast: 120 } },
          { type: 'DATE' },
          { type: 'HACKER_NEWS' },
        ],
      },
      'Rain chance at least (%) must be from 0 to 100',
    ],
    [
      {
        sources: [
          { ...WEATHER, conditions: { temperatureOutside: { min: 20, max: 10 } } },
          { type: 'DATE' },
          { type: 'HACKER_NEWS' },
        ],
      },
      'Lowest temperature must be below the highest',
    ],
    [
      {
        sources: [
          { type: 'HACKER_NEWS', conditions: { minPoints: -1 } },
          { type: 'DATE' },
          { type: 'HACKER_NEWS' },
        ],
      },
      'Points at least must be 0 or more',
    ],
    [
      {
        sources: [
          { type: 'REDDIT', sourceName: 'programming', conditions: { minComments: 1.5 } },
          { type: 'DATE' },
          { type: 'HACKER_NEWS' },
        ],
      },
      'Comments at least must be a whole number',
    ],
    [
      {
        sources: [
          { type: 'STRIPE', conditions: { revenueChangeAbove: -5 } },
          { type: 'DATE' },
          { type: 'HACKER_NEWS' },
        ],
      },
      'Revenue change above (%) must be from 0 to 1000',
    ],
    [
      {
        sources: [
          { type: 'HACKER_NEWS', conditions: { minNewItems: 11 } },
          { type: 'DATE' },
          { type: 'HACKER_NEWS' },
        ],
      },
      'New items at least must be from 1 to 10',
    ],
    [{ minSourcesToSend: 21 }, 'Sources needed must be from 0 to 20'],
    [{ minSourcesToSend: 1.5 }, 'Sources needed must be a whole number'],
  ])(
    'refuses a bad threshold with 400 VALIDATION_ERROR and the schema message, storing nothing (%#)',
    async (body, message) => {
      const owner = await signUp(t);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/digests',
        headers: owner.headers,
        payload: { sources: [{ type: 'HACKER_NEWS' }, { type: 'DATE' }, { type: 'HACKER_NEWS' }], ...body },
      });
      expect(created.statusCode).toBe(400);
      expect(created.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(created.json().message).toContain(message);
      const digest = await createDigest(t.app, owner, { name: 'Unchanged' });
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/digests/${digest.digestId}`,
        headers: owner.headers,
        payload: body,
      });
      expect(patched.statusCode).toBe(400);
      expect(patched.json().message).toContain(message);
      const list = await t.app.inject({ method: 'GET', url: '/api/digests', headers: owner.headers });
      expect(list.json().digests).toHaveLength(1);
      const stored = await t.app.inject({
        method: 'GET',
        url: `/api/digests/${digest.digestId}`,
        headers: owner.headers,
      });
      expect(stored.json().digest).toMatchObject({ minSourcesToSend: 0 });
      expect(JSON.stringify(stored.json().digest.sources)).not.toContain('conditions');
    },
  );
});
