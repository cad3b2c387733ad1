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
