import { FEED_MOVE_AFTER_DAYS, type Source, type SourceHealth, sourceHealthKey } from '@digest/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, digests, issueRuns, sourceHealth } from '#server/db/schema';
import { call, createDigest } from '#server/modules/digests/test-support';
import { buildIssue } from '#server/modules/issues/build-issue.usecases';
import { addFriends } from '#server/modules/subscribers/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { recordIssueHealth, type SourceRead } from './source-health.usecases';

// Issue 17 "Source health", on the embedded database and on PostgreSQL (TEST_DATABASE_URL): a source failing
// three issues in a row (the fake feed answering 500, 404, 401) mails its owner once at a real SMTP server,
// its card and page say so, and recovery clears it; a feed answering 308 for a week is moved.

let fakes: FakeProviders;
let smtp: TestSmtpServer;
let t: TestApi;
const clock = testClock(new Date());

beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer();
  t = await startTestApi({ fakes, smtp, clock, roles: ['worker'], appUrl: 'http://app.test' });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sessions are timed by the test clock: a fresh one after it moved. */
async function headersOf(user: TestUser) {
  const { accessToken } = await t.sessionFor(user.userId);
  return { ...user.headers, authorization: `Bearer ${accessToken}` };
}

let scriptedCount = 0;
/** A feed of the fakes whose answer the test sets (`/feeds/scripted/<name>`). */
function scriptedFeed() {
  scriptedCount += 1;
  const url = `${fakes.origin}/feeds/scripted/health-${scriptedCount}-${Date.now()}`;
  return {
    url,
    answer: async (status: number, location?: string) => {
      const response = await fetch(url, { method: 'PUT', body: JSON.stringify({ status, location }) });
      expect(response.status).toBe(204);
    },
  };
}

async function runIssue(digestId: string) {
  // One run per slot: each issue of a test is a slot a second after the last.
  clock.advance(1_000);
  const [run] = await t.database.db.insert(issueRuns).values({ digestId, slot: clock.now() }).returning();
  if (!run) throw new Error('no run');
  return buildIssue(t.modules.issuesDeps, run.runId);
}

async function healthOf(user: TestUser, digestId: string): Promise<SourceHealth[]> {
  const response = await call(
    t.app,
    { headers: await headersOf(user) },
    'GET',
    `/api/digests/${digestId}/health`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json().sources;
}

async function cardOf(user: TestUser, digestId: string) {
  const response = await call(t.app, { headers: await headersOf(user) }, 'GET', '/api/digests');
  expect(response.statusCode).toBe(200);
  return (response.json().digests as { digestId: string; failingSources: number }[]).find(
    (digest) => digest.digestId === digestId,
  );
}

const alertsTo = (email: string) =>
  smtp.received.filter(
    (mail) => mail.rcptTo.includes(email) && /a source keeps failing/.test(mail.parsed.subject ?? ''),
  );

describe('a source failing three issues in a row', () => {
  it('mails its owner once, marks the card and the page with the fix, and recovery clears them', async () => {
    const owner = await signUp(t);
    const feed = scriptedFeed();
    const digest = await createDigest(t.app, owner, {
      name: 'Tram Notes',
      sources: [
        { type: 'RSS', feedLink: feed.url, sourceName: 'Depot News' },
        // Its stories again in every issue, so each issue is sent whatever the feed does.
        { type: 'HACKER_NEWS', onlyNew: false },
        { type: 'DATE' },
      ],
    });
    await addFriends(t.database.db, digest.digestId, ['friend@example.com']);

    await feed.answer(500);
    await runIssue(digest.digestId);
    let [depot] = await healthOf(owner, digest.digestId);
    expect(depot).toMatchObject({
      title: 'Depot News',
      failing: true,
      consecutiveFailures: 1,
      lastError: { kind: 'upstream', providerStatus: 500 },
      fix: { action: 'wait' },
    });
    expect(depot?.lastError?.detail).toMatch(/500/);
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(1);

    await feed.answer(404);
    await runIssue(digest.digestId);
    // The owner's copy links to the fix; the friend's copy and the public page never do.
    const issue2 = (to: string) =>
      smtp.received.find(
        (mail) => mail.rcptTo.includes(to) && mail.parsed.subject === 'Digest “Tram Notes”, issue 2',
      );
    await expect
      .poll(() => issue2(owner.email) && issue2('friend@example.com'), { timeout: 15_000 })
      .toBeTruthy();
    const ownersCopy = issue2(owner.email)?.parsed;
    const friendsCopy = issue2('friend@example.com')?.parsed;
    expect(ownersCopy?.html).toContain(`href="http://app.test/digests/${digest.digestId}"`);
    expect(ownersCopy?.html).toContain('Edit the source');
    expect(ownersCopy?.text).toContain(`Edit the source http://app.test/digests/${digest.digestId}`);
    expect(friendsCopy?.html).toContain('Depot News could not be loaded');
    for (const copy of [ownersCopy?.html, ownersCopy?.text, friendsCopy?.html, friendsCopy?.text])
      expect(copy).not.toContain('owner-only');
    expect(friendsCopy?.html).not.toContain('Edit the source');
    expect(friendsCopy?.text).not.toContain('Edit the source');
    const [build] = await t.database.db
      .select()
      .from(digestBuilds)
      .where(and(eq(digestBuilds.digestId, digest.digestId), eq(digestBuilds.buildNumber, 2)));
    expect(build?.publicHtml).toContain('Depot News could not be loaded');
    expect(build?.publicHtml).not.toContain('Edit the source');
    await feed.answer(401);
    clock.advance(60_000);
    await runIssue(digest.digestId);
    [depot] = await healthOf(owner, digest.digestId);
    expect(depot).toMatchObject({
      failing: true,
      consecutiveFailures: 3,
      lastError: { providerStatus: 401 },
    });

    await expect.poll(() => alertsTo(owner.email).length, { timeout: 15_000 }).toBe(1);
    const [alert] = alertsTo(owner.email);
    expect(alert?.parsed.subject).toBe('Digest “Tram Notes”: a source keeps failing, “Depot News”');
    expect(alert?.parsed.text).toContain('could not be read in the last 3 issues');
    expect(alert?.parsed.text).toContain(`http://app.test/digests/${digest.digestId}`);

    // A fourth failure in the same streak: no second mail.
    await runIssue(digest.digestId);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(alertsTo(owner.email)).toHaveLength(1);

    // Recovery clears the streak, the warning and the card's mark.
    await feed.answer(200);
    clock.advance(60_000);
    await runIssue(digest.digestId);
    [depot] = await healthOf(owner, digest.digestId);
    expect(depot).toMatchObject({ failing: false, consecutiveFailures: 0, fix: null });
    expect(depot?.lastSuccessAt).toBe(clock.now().toISOString());
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(0);
    const [row] = await t.database.db
      .select()
      .from(sourceHealth)
      .where(eq(sourceHealth.digestId, digest.digestId));
    expect(row?.alertedAt).toBeNull();
  });
});

describe('the failing streak', () => {
  const rss = (feedLink: string): Source => ({ type: 'RSS', feedLink, sourceName: 'Streak' }) as Source;
  const failure = (source: Source): SourceRead => ({
    source,
    ok: false,
    error: { kind: 'upstream', detail: 'The feed answered 500', providerStatus: 500 },
  });

  it('alerts again after a recovery once a new streak reaches three; previews never count in it', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [rss(`${fakes.origin}/feeds/rss2.xml`), { type: 'HACKER_NEWS' }, { type: 'DATE' }],
    });
    const [stored] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    const source = stored?.sources[0] as Source;
    const deps = { ...t.modules.issuesDeps };
    const streak = async () => {
      for (let issue = 0; issue < 3; issue++)
        await recordIssueHealth(deps, digest.digestId, [failure(source)]);
    };
    await streak();
    await expect.poll(() => alertsTo(owner.email).length, { timeout: 15_000 }).toBe(1);
    await recordIssueHealth(deps, digest.digestId, [{ source, ok: true }]);
    await recordIssueHealth(deps, digest.digestId, [failure(source)]);
    await recordIssueHealth(deps, digest.digestId, [failure(source)]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(alertsTo(owner.email)).toHaveLength(1);
    await recordIssueHealth(deps, digest.digestId, [failure(source)]);
    await expect.poll(() => alertsTo(owner.email).length, { timeout: 15_000 }).toBe(2);
  });

  it("a preview of one of the digest's sources records how it read; another user's digest answers 404", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const feed = scriptedFeed();
    const source = { type: 'RSS', feedLink: feed.url, sourceName: 'Previewed' };
    const digest = await createDigest(t.app, owner, {
      sources: [source, { type: 'HACKER_NEWS' }, { type: 'DATE' }],
    });
    await feed.answer(404);
    const preview = (user: TestUser, body: object) =>
      call(t.app, user, 'POST', '/api/data-sources/preview', body);
    const failed = await preview(owner, { source, digestId: digest.digestId });
    expect(failed.statusCode).toBe(404);
    const [previewed] = await healthOf(owner, digest.digestId);
    // A failed preview says so, with the fix, but is no failed issue.
    expect(previewed).toMatchObject({
      failing: true,
      consecutiveFailures: 0,
      lastError: { kind: 'not_found' },
      fix: { action: 'edit', message: 'The feed is not at this address any more.' },
    });
    const refused = await preview(other, { source, digestId: digest.digestId });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).not.toMatch(/feed/i);
    // Settings the digest does not have (a source being edited) are no source's health.
    await preview(owner, {
      source: { ...source, feedLink: `${fakes.origin}/feeds/atom.xml` },
      digestId: digest.digestId,
    });
    expect((await healthOf(owner, digest.digestId)).map((health) => health.key)).not.toContain(
      `RSS\n${fakes.origin}/feeds/atom.xml`,
    );
    await feed.answer(200);
    expect((await preview(owner, { source, digestId: digest.digestId })).statusCode).toBe(200);
    expect((await healthOf(owner, digest.digestId))[0]).toMatchObject({ failing: false, fix: null });
  });
});

describe('reads that all went well (issue 15: no write when nothing changed)', () => {
  // The last failure stays in the record (its words) after a recovery; the rest says all is well.
  const wellRead = {
    failing: false,
    consecutiveFailures: 0,
    retryAt: null,
    fix: null,
    movedTo: null,
    note: null,
  };
  const rowsOf = (digestId: string) =>
    t.database.db.select().from(sourceHealth).where(eq(sourceHealth.digestId, digestId));

  it('keep no record of sources that never failed: the page shows each of them well, the card none failing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [
        { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml`, sourceName: 'Quiet' },
        { type: 'HACKER_NEWS', onlyNew: false },
        { type: 'DATE' },
      ],
    });
    await runIssue(digest.digestId);
    await runIssue(digest.digestId);
    expect(await rowsOf(digest.digestId)).toEqual([]);
    const health = await healthOf(owner, digest.digestId);
    expect(health).toHaveLength(3);
    for (const source of health)
      expect(source).toMatchObject({ ...wellRead, lastSuccessAt: null, lastError: null });
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(0);
  });

  it('leave a record that says all is well unwritten: it keeps the read that ended the failure, and a later failure is one again', async () => {
    const owner = await signUp(t);
    const feed = scriptedFeed();
    const digest = await createDigest(t.app, owner, {
      sources: [
        { type: 'RSS', feedLink: feed.url, sourceName: 'Mended' },
        { type: 'HACKER_NEWS', onlyNew: false },
        { type: 'DATE' },
      ],
    });
    await feed.answer(500);
    await runIssue(digest.digestId);
    expect((await healthOf(owner, digest.digestId))[0]).toMatchObject({
      failing: true,
      consecutiveFailures: 1,
    });
    await feed.answer(200);
    clock.advance(60_000);
    await runIssue(digest.digestId);
    const recovered = clock.now().toISOString();
    expect((await healthOf(owner, digest.digestId))[0]).toMatchObject({
      ...wellRead,
      lastSuccessAt: recovered,
    });

    const before = await rowsOf(digest.digestId);
    clock.advance(60_000);
    await runIssue(digest.digestId);
    expect(await rowsOf(digest.digestId)).toEqual(before);
    expect((await healthOf(owner, digest.digestId))[0]).toMatchObject({
      ...wellRead,
      lastSuccessAt: recovered,
    });
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(0);

    const [stored] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    const source = stored?.sources[0] as Source;
    clock.advance(60_000);
    await recordIssueHealth(t.modules.issuesDeps, digest.digestId, [
      {
        source,
        ok: false,
        error: { kind: 'upstream', detail: 'The feed answered 500', providerStatus: 500 },
      },
    ]);
    expect((await healthOf(owner, digest.digestId))[0]).toMatchObject({
      failing: true,
      consecutiveFailures: 1,
      lastSuccessAt: recovered,
    });
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(1);
  });
});

describe('GET /api/digests/{id}/health', () => {
  it("answers the owner only: another user's digest and an unknown id are 404, no token is 401", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const url = `/api/digests/${digest.digestId}/health`;
    const mine = await call(t.app, { headers: await headersOf(owner) }, 'GET', url);
    expect(mine.statusCode).toBe(200);
    // One entry per source, in order, none read yet.
    expect(mine.json().sources.map((health: SourceHealth) => [health.index, health.failing])).toEqual([
      [0, false],
      [1, false],
      [2, false],
    ]);
    expect((await call(t.app, { headers: await headersOf(other) }, 'GET', url)).statusCode).toBe(404);
    expect((await call(t.app, null, 'GET', url)).statusCode).toBe(401);
    const unknown = `/api/digests/${crypto.randomUUID()}/health`;
    expect((await call(t.app, { headers: await headersOf(owner) }, 'GET', unknown)).statusCode).toBe(404);
    expect(
      (await call(t.app, { headers: await headersOf(owner) }, 'GET', '/api/digests/nope/health')).statusCode,
    ).toBe(404);
  });

  it("forgets a removed source's record, and every record with the digest", async () => {
    const owner = await signUp(t);
    const feed = scriptedFeed();
    const failing = { type: 'RSS', feedLink: feed.url, sourceName: 'Gone soon' };
    const digest = await createDigest(t.app, owner, {
      sources: [failing, { type: 'HACKER_NEWS' }, { type: 'DATE' }],
    });
    await feed.answer(500);
    await runIssue(digest.digestId);
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(1);
    const headers = { headers: await headersOf(owner) };
    const patched = await call(t.app, headers, 'PATCH', `/api/digests/${digest.digestId}`, {
      sources: [
        { type: 'HACKER_NEWS' },
        { type: 'DATE' },
        { type: 'WEATHER', latitude: 1, longitude: 2, locationName: 'Null Island' },
      ],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await cardOf(owner, digest.digestId))?.failingSources).toBe(0);
    const rows = () =>
      t.database.db.select().from(sourceHealth).where(eq(sourceHealth.digestId, digest.digestId));
    expect((await rows()).map((row) => row.sourceKey)).not.toContain(`RSS\n${feed.url}`);
    await runIssue(digest.digestId);
    expect((await rows()).length).toBeGreaterThan(0);
    expect((await call(t.app, headers, 'DELETE', `/api/digests/${digest.digestId}`)).statusCode).toBe(200);
    expect(await rows()).toEqual([]);
  });
});

describe('a feed that moved', () => {
  it('answering 308 for a week is read at its new address, with a note; before that, the fix says where', async () => {
    const owner = await signUp(t);
    const feed = scriptedFeed();
    const target = `${fakes.origin}/feeds/rss2.xml`;
    const digest = await createDigest(t.app, owner, {
      sources: [
        { type: 'RSS', feedLink: feed.url, sourceName: 'Moving' },
        { type: 'HACKER_NEWS' },
        { type: 'DATE' },
      ],
    });
    await feed.answer(308, target);
    await runIssue(digest.digestId);
    const seen = clock.now().toISOString();
    let [moving] = await healthOf(owner, digest.digestId);
    expect(moving).toMatchObject({
      failing: false,
      movedTo: { address: target, since: seen },
      fix: { action: 'edit', message: `The feed moved: use ${target}` },
      note: null,
    });

    clock.advance((FEED_MOVE_AFTER_DAYS - 1) * DAY_MS);
    await runIssue(digest.digestId);
    const sourcesOf = async () =>
      (await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId)))[0]
        ?.sources as Source[];
    expect((await sourcesOf())[0]).toMatchObject({ feedLink: feed.url });

    clock.advance(DAY_MS);
    await runIssue(digest.digestId);
    expect((await sourcesOf())[0]).toMatchObject({ type: 'RSS', feedLink: target, sourceName: 'Moving' });
    [moving] = await healthOf(owner, digest.digestId);
    expect(moving).toMatchObject({
      key: sourceHealthKey((await sourcesOf())[0] as Source),
      movedTo: null,
      fix: null,
      note: `Moved to ${target} on ${clock.now().toISOString().slice(0, 10)}.`,
    });
    // The digest's own answer (read through the list's memory) has the new address too.
    const detail = await call(
      t.app,
      { headers: await headersOf(owner) },
      'GET',
      `/api/digests/${digest.digestId}`,
    );
    expect(detail.json().digest.sources[0].feedLink).toBe(target);
  });

  it('a redirect that stops before the week is forgotten, and one to another address starts again', async () => {
    const owner = await signUp(t);
    const feedLink = `${fakes.origin}/feeds/rss2.xml`;
    const digest = await createDigest(t.app, owner, {
      sources: [{ type: 'RSS', feedLink }, { type: 'HACKER_NEWS' }, { type: 'DATE' }],
    });
    const [stored] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    const source = stored?.sources[0] as Source;
    const deps = t.modules.issuesDeps;
    const read = (movedTo?: string): SourceRead => ({ source, ok: true, movedTo });
    const first = clock.now().toISOString();
    await recordIssueHealth(deps, digest.digestId, [read('https://a.example/feed')]);
    clock.advance(DAY_MS);
    await recordIssueHealth(deps, digest.digestId, [read('https://a.example/feed')]);
    expect((await healthOf(owner, digest.digestId))[0]?.movedTo).toEqual({
      address: 'https://a.example/feed',
      since: first,
    });
    await recordIssueHealth(deps, digest.digestId, [read()]);
    expect((await healthOf(owner, digest.digestId))[0]?.movedTo).toBeNull();
    await recordIssueHealth(deps, digest.digestId, [read('https://b.example/feed')]);
    clock.advance((FEED_MOVE_AFTER_DAYS - 1) * DAY_MS);
    await recordIssueHealth(deps, digest.digestId, [read('https://c.example/feed')]);
    clock.advance(DAY_MS);
    await recordIssueHealth(deps, digest.digestId, [read('https://c.example/feed')]);
    const [again] = await healthOf(owner, digest.digestId);
    expect(again?.movedTo?.address).toBe('https://c.example/feed');
    expect(
      (await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId)))[0]
        ?.sources[0],
    ).toMatchObject({ feedLink });
  });
});
