import { CATCH_UP_TITLE } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digests, issueRuns } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { receiveTestNewsletter } from '#server/modules/newsletters/test-support';
import { addFriends } from '#server/modules/subscribers/test-support';
import { signUp } from '#server/modules/users/test-support';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { type FakeProvider, type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { allFakeProviders } from '#test/fakes/providers';
import { runSchedulerTick } from './scheduler';

// Issue 17 "While you were away", the whole way on a fake clock: pause three weeks, resume with catch-up →
// exactly one issue with the paused period's items (to the owner and the friend), then the normal schedule.
const DAY_MS = 86_400_000;
// The clock starts three weeks before the real now, so that after three weeks on it the Hacker News fake
// (whose stories are hours old in real time) has posted its stories within the paused time.
const clock = testClock(new Date(Date.now() - 21 * DAY_MS - 60 * 60_000));
const pausedAt = clock.now();
const at = (days: number) => new Date(pausedAt.getTime() + days * DAY_MS).toUTCString();

/**
 * A blog's feed, newest first as feeds list them: one post dated after the resume (a post scheduled ahead),
 * three while paused, one before the pause.
 */
const awayFeed: FakeProvider = {
  prefix: '/away',
  env: {},
  handle: () => ({
    headers: { 'content-type': 'application/rss+xml; charset=utf-8' },
    body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Away blog</title><link>https://away.example/</link>
      ${[
        ['Dated after the resume', 21.5],
        ['Away post three', 18],
        ['Away post two', 9],
        ['Away post one', 2],
        ['Before the pause', -3],
      ]
        .map(
          ([title, day]) =>
            `<item><title>${title}</title><link>https://away.example/${encodeURIComponent(String(title))}</link><pubDate>${at(Number(day))}</pubDate><description>About ${title}</description></item>`,
        )
        .join('')}
    </channel></rss>`,
  }),
};

let fakes: FakeProviders;
let smtp: TestSmtpServer;
let t: TestApi;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [...allFakeProviders, awayFeed] });
  smtp = await startSmtpServer();
  t = await startTestApi({ fakes, roles: ['worker'], smtp, clock });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);

interface Hit {
  title: string;
  created_at_i: number;
}

/** What Hacker News (its fake) answers for the best stories posted in a window: what the issue should show. */
async function bestStories(since: Date, until: Date, count: number): Promise<Hit[]> {
  const query = new URLSearchParams({
    tags: 'story',
    hitsPerPage: String(count),
    numericFilters: `created_at_i>${Math.floor(since.getTime() / 1000)},created_at_i<=${Math.floor(until.getTime() / 1000)}`,
  });
  const answer = await fetch(`${fakes.origin}/hn/v1/search?${query}`);
  return ((await answer.json()) as { hits: Hit[] }).hits;
}

describe('while you were away', () => {
  it('pause three weeks, resume with catch-up: exactly one issue of the paused period, then the normal schedule', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      name: 'Away',
      scheduleType: 'daily',
      time: '07:00',
      sources: [
        { type: 'DATE' },
        { type: 'RSS', feedLink: `${fakes.origin}/away/feed.xml`, numberOfPosts: 2 },
        { type: 'HACKER_NEWS', numberOfPosts: 3 },
        { type: 'NEWSLETTERS' },
      ],
    });
    await addFriends(t.database.db, digest.digestId, ['friend@example.com']);
    const paused = await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    expect(paused.json().digest.pausedAt).toBe(pausedAt.toISOString());
    await receiveTestNewsletter(t.database.db, owner.userId, {
      subject: 'Letter before the pause',
      receivedAt: new Date(pausedAt.getTime() - DAY_MS),
    });
    await receiveTestNewsletter(t.database.db, owner.userId, {
      subject: 'Letter while away',
      text: 'Sent while the digest was paused',
      receivedAt: new Date(pausedAt.getTime() + 5 * DAY_MS),
    });

    clock.advance(21 * DAY_MS);
    const resumedAt = clock.now();
    // Three weeks later the owner signs in again (the morning's access token has long expired).
    const session = await t.sessionFor(owner.userId);
    const back = { headers: { ...owner.headers, authorization: `Bearer ${session.accessToken}` } };
    const resumed = await api(back, 'PATCH', `/api/digests/${digest.digestId}`, {
      active: true,
      catchUp: true,
    });
    expect(resumed.statusCode).toBe(200);
    const nextRunAt = new Date(resumed.json().digest.nextRunAt);
    expect(nextRunAt.getTime()).toBeGreaterThan(resumedAt.getTime());
    expect(nextRunAt.getTime() - resumedAt.getTime()).toBeLessThanOrEqual(DAY_MS);

    // No flood of missed slots: the scheduler has nothing due.
    const tick = () => runSchedulerTick({ ...t.modules.issuesDeps, queue: t.jobs, maxLatenessMs: 3_600_000 });
    expect(await tick()).toEqual({ queued: 0, skipped: 0 });

    const ofDigest = () => smtp.received.filter((mail) => mail.parsed.subject?.startsWith('Digest “Away”'));
    await expect.poll(() => ofDigest().length, { timeout: 30_000, interval: 200 }).toBe(2);
    const catchUp = ofDigest();
    expect(catchUp.map((mail) => mail.parsed.subject)).toEqual([
      `Digest “Away”, issue 1: ${CATCH_UP_TITLE}`,
      `Digest “Away”, issue 1: ${CATCH_UP_TITLE}`,
    ]);
    expect(catchUp.flatMap((mail) => mail.rcptTo).sort()).toEqual([owner.email, 'friend@example.com'].sort());
    const html = catchUp[0]?.parsed.html || '';
    const text = catchUp[0]?.parsed.text ?? '';
    expect(html).toContain(CATCH_UP_TITLE);
    expect(text.toLowerCase()).toContain(CATCH_UP_TITLE.toLowerCase());
    // The feed's posts of the paused time, newest first, capped at the block's two.
    expect(text).toContain('Away post three');
    expect(text).toContain('Away post two');
    expect(text).not.toContain('Away post one');
    expect(text).not.toContain('Before the pause');
    expect(text).not.toContain('Dated after the resume');
    // The newsletters received while paused, not before.
    expect(text).toContain('Letter while away');
    expect(text).not.toContain('Letter before the pause');
    // The best of Hacker News posted while paused.
    const best = await bestStories(pausedAt, resumedAt, 3);
    expect(best).toHaveLength(3);
    for (const story of best) expect(html).toContain(story.title.replaceAll('&', '&amp;'));
    // Today's date describes today, not the paused time: left out of the catch-up.
    expect(text).not.toMatch(/today.s date/i);

    const runs = await t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digest.digestId));
    expect(runs).toMatchObject([
      { trigger: 'catch_up', status: 'built', catchUpSince: pausedAt, slot: resumedAt },
    ]);

    // Asking again sends nothing more.
    const again = await api(back, 'PATCH', `/api/digests/${digest.digestId}`, {
      active: true,
      catchUp: true,
    });
    expect(again.statusCode).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(ofDigest()).toHaveLength(2);

    // Then the normal schedule: its next slot builds issue 2, which repeats none of the catch-up's items.
    clock.advance(nextRunAt.getTime() - clock.now().getTime() + 30_000);
    expect((await tick()).queued).toBe(1);
    const issueTwo = () => ofDigest().filter((mail) => mail.parsed.subject === 'Digest “Away”, issue 2');
    await expect.poll(() => issueTwo().length, { timeout: 30_000, interval: 200 }).toBe(2);
    const normal = issueTwo()[0]?.parsed;
    const normalText = normal?.text ?? '';
    expect(normal?.html).not.toContain(CATCH_UP_TITLE);
    expect(normalText).toMatch(/today.s date/i);
    expect(normalText).not.toContain('Away post three');
    expect(normalText).not.toContain('Away post two');
    expect(normalText).not.toContain('Letter while away');
    for (const story of best) expect(normal?.html).not.toContain(story.title.replaceAll('&', '&amp;'));
    const [row] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    expect(row?.nextRunAt?.getTime()).toBe(nextRunAt.getTime() + DAY_MS);
  });
});
