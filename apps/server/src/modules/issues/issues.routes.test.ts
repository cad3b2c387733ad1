import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digestBuilds, issueRuns } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { addFriends } from '#server/modules/subscribers/test-support';
import { signUp } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { REBUILD_RATE_LIMIT } from './issues.routes';

let fakes: FakeProviders;
let t: TestApi;
beforeAll(async () => {
  fakes = await startFakeProviders();
  t = await startTestApi({ fakes });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
});

const api = callerOf(() => t.app);
const feed = (name: string) => ({ type: 'RSS', feedLink: `${fakes.origin}/feeds/${name}`, sourceName: name });
/** Sources that repeat their items in every issue ("Only new items" off): these tests build several. */
const liveSources = () => [
  { ...feed('rss2.xml'), onlyNew: false },
  { type: 'HACKER_NEWS', onlyNew: false },
  { type: 'DATE' },
];
const rebuild = (user: Parameters<typeof api>[0], digestId: string) =>
  api(user, 'POST', `/api/digests/rebuild/${digestId}`);
const buildsOf = (digestId: string) =>
  t.database.db.select().from(digestBuilds).where(eq(digestBuilds.digestId, digestId));

describe('POST /api/digests/rebuild/{id} (Send latest digest)', () => {
  it('builds a new issue now, answers it, lists it in the digest and mails only the owner', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { name: 'Now please', sources: liveSources() });
    await addFriends(t.database.db, digest.digestId, ['friend@example.com']);
    const first = await rebuild(owner, digest.digestId);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      message: 'Issue 1 is built and on its way to your inbox.',
      build: {
        buildNumber: 1,
        createdAt: expect.any(String),
        htmlLink: expect.stringMatching(new RegExp(`^/api/digests/${digest.digestId}/issues/1/html\\?`)),
      },
    });
    const second = await rebuild(owner, digest.digestId);
    expect(second.json().build.buildNumber).toBe(2);

    const detail = await api(owner, 'GET', `/api/digests/${digest.digestId}`);
    expect(detail.json().digest.builds.map((build: { buildNumber: number }) => build.buildNumber)).toEqual([
      1, 2,
    ]);
    expect(detail.json().digest.latestBuildNumber).toBe(2);

    const sent = await t.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.digestId, digest.digestId));
    expect(sent.map((row) => [row.kind, row.recipient])).toEqual([
      ['owner', owner.email],
      ['owner', owner.email],
    ]);
    const runs = await t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digest.digestId));
    expect(runs.map((run) => [run.trigger, run.status])).toEqual([
      ['manual', 'built'],
      ['manual', 'built'],
    ]);

    // The digest is private: no public page, and the owner reads the issue by its signed link.
    expect((await api(null, 'GET', `/api/digests/share/${digest.digestId}/2`)).statusCode).toBe(404);
    const page = await api(null, 'GET', second.json().build.htmlLink);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Now please</title>');
    expect(page.body).not.toContain('digest:recipient-footer');
  });

  it('builds a paused digest too (pausing stops only the schedule)', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { sources: liveSources(), active: false });
    expect((await rebuild(owner, digest.digestId)).statusCode).toBe(200);
  });

  it('answers 422 NOTHING_TO_SEND and stores nothing when every source failed or was empty', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [feed('missing.xml'), { type: 'DATE' }, feed('also-missing.xml')],
    });
    const response = await rebuild(owner, digest.digestId);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'NOTHING_TO_SEND',
      message: 'Nothing to send: 2 of 3 sources failed and the others had nothing new.',
    });
    expect(await buildsOf(digest.digestId)).toEqual([]);
  });

  it("answers 404 for another user's digest, an unknown id or a malformed one, and builds nothing", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const digest = await createDigest(t.app, owner, { sources: liveSources() });
    for (const [user, id] of [
      [stranger, digest.digestId],
      [owner, '00000000-0000-4000-8000-000000000000'],
      [owner, 'not-an-id'],
    ] as const) {
      const response = await rebuild(user, id);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('DIGEST_NOT_FOUND');
    }
    expect(await buildsOf(digest.digestId)).toEqual([]);
  });

  it('needs a signed-in user, and a GET (a link scanner) does nothing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { sources: liveSources() });
    expect((await rebuild(null, digest.digestId)).statusCode).toBe(401);
    expect((await api(owner, 'GET', `/api/digests/rebuild/${digest.digestId}`)).statusCode).toBe(404);
    expect(await buildsOf(digest.digestId)).toEqual([]);
  });

  it(`is limited to ${REBUILD_RATE_LIMIT.max} per account in ${REBUILD_RATE_LIMIT.timeWindow}`, async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [{ type: 'DATE' }, { type: 'DATE' }, { type: 'DATE' }],
    });
    const statuses: number[] = [];
    for (let i = 0; i <= REBUILD_RATE_LIMIT.max; i += 1)
      statuses.push((await rebuild(owner, digest.digestId)).statusCode);
    expect(statuses.slice(0, REBUILD_RATE_LIMIT.max).every((status) => status === 422)).toBe(true);
    const limited = await rebuild(owner, digest.digestId);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
