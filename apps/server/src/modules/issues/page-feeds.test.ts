import { NOTHING_NEW_MESSAGE, type Source, sourceSchema } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/client';
import { digests, issueRuns } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { signUp } from '#server/modules/users/test-support';
import { createConnectors } from '#server/sources/connectors';
import { connectorDeps } from '#server/sources/sources.test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { createDatabaseAt } from '#server-test/upgrade-database';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { feedsFake } from '#test/fakes/providers/feeds';
import { type BuildOutcome, buildIssue } from './build-issue.usecases';
import { replaceSourcesIfUnchanged } from './issues.repository';

// docs/design.md §7: a pasted page is read through the feed it announces. That feed, once found, is what
// the source keeps, so no issue fetches the page and looks for its feed again.
let fakes: FakeProviders;
let t: TestApi;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [feedsFake] });
  t = await startTestApi({ fakes });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
});

const api = callerOf(() => t.app);
const feed = (name: string) => `${fakes.origin}/feeds/${name}`;
const ITEM = 'The night shift that keeps the trams running';

/**
 * Builds one issue of the digest with connectors whose content cache is new (as a fetch after the cached
 * copy went stale would be), so every fetch a build makes reaches the fake server and is counted.
 */
async function build(test: TestApi, database: Database, digestId: string): Promise<BuildOutcome> {
  const [run] = await database.insert(issueRuns).values({ digestId, slot: new Date() }).returning();
  if (!run) throw new Error('no run');
  const connectors = createConnectors(connectorDeps(fakes));
  return buildIssue({ ...test.modules.issuesDeps, db: database, connectors }, run.runId);
}

const sourcesOf = async (database: Database, digestId: string) =>
  (await database.select({ sources: digests.sources }).from(digests).where(eq(digests.digestId, digestId)))[0]
    ?.sources;

describe('an RSS source given a web page is saved as the feed the page announces, with the page kept to show', () => {
  it('the first issue finds the feed and saves it; later issues read the feed and never the page', async () => {
    const owner = await signUp(t);
    // As an API client (or the builder before pages were resolved) saves it: the page as the feed link.
    // "Only new items" off: issues 2 and 3 read feeds that have not changed.
    const digest = await createDigest(t.app, owner, {
      sources: [
        { type: 'RSS', feedLink: feed('page-with-feed.html'), sourceName: 'Field Notes', onlyNew: false },
        { type: 'RSS', feedLink: feed('atom.xml'), onlyNew: false },
        { type: 'DATE' },
      ],
    });
    fakes.resetHits();

    expect(await build(t, t.database.db, digest.digestId)).toMatchObject({ status: 'built' });
    expect(fakes.hits('/feeds', '/page-with-feed.html')).toBe(1);
    expect(fakes.hits('/feeds', '/rss2.xml')).toBe(1);
    const [page, direct] = (await sourcesOf(t.database.db, digest.digestId)) ?? [];
    expect(page).toMatchObject({
      type: 'RSS',
      feedLink: feed('rss2.xml'),
      pageUrl: feed('page-with-feed.html'),
      sourceName: 'Field Notes',
    });
    // A feed given as a feed stays as it was: no page to keep.
    expect(direct).toMatchObject({ feedLink: feed('atom.xml') });
    expect(direct).not.toHaveProperty('pageUrl');

    for (const issue of [2, 3]) {
      expect(await build(t, t.database.db, digest.digestId)).toMatchObject({
        status: 'built',
        build: { buildNumber: issue },
      });
    }
    expect(fakes.hits('/feeds', '/page-with-feed.html')).toBe(1);
    expect(fakes.hits('/feeds', '/rss2.xml')).toBe(3);

    // The owner's digest shows the page as the source's address, and the issues carry the feed's items.
    const detail = await api(owner, 'GET', `/api/digests/${digest.digestId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const answer = detail.json();
    expect(answer.digest.sources[0]).toMatchObject({
      feedLink: feed('rss2.xml'),
      pageUrl: feed('page-with-feed.html'),
    });
    const issue = await api(owner, 'GET', answer.digest.builds[0].htmlLink);
    expect(issue.body).toContain(ITEM);
  });

  it('a page whose feed cannot be found changes nothing, and says so in its block', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [
        { type: 'RSS', feedLink: feed('page-without-feed.html') },
        { type: 'RSS', feedLink: feed('rss2.xml') },
        { type: 'DATE' },
      ],
    });
    const before = await sourcesOf(t.database.db, digest.digestId);
    expect(await build(t, t.database.db, digest.digestId)).toMatchObject({ status: 'built' });
    expect(await sourcesOf(t.database.db, digest.digestId)).toEqual(before);
  });

  it('an edit the owner saved while the issue was being built wins over the found feed', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [
        { type: 'RSS', feedLink: feed('page-with-feed.html') },
        { type: 'RSS', feedLink: feed('atom.xml') },
        { type: 'DATE' },
      ],
    });
    const read = (await sourcesOf(t.database.db, digest.digestId)) ?? [];
    const edited = {
      sources: [{ type: 'RSS', feedLink: feed('json-feed.json') }, { type: 'DATE' }, { type: 'DATE' }],
    };
    expect((await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, edited)).statusCode).toBe(200);
    const saved = await sourcesOf(t.database.db, digest.digestId);
    const resolved = read.map(
      (source, index): Source =>
        index === 0 && source.type === 'RSS'
          ? { ...source, feedLink: feed('rss2.xml'), pageUrl: source.feedLink }
          : source,
    );
    await replaceSourcesIfUnchanged(t.database.db, digest.digestId, read, resolved);
    expect(await sourcesOf(t.database.db, digest.digestId)).toEqual(saved);
    // Unchanged since read, the found feed is saved.
    await replaceSourcesIfUnchanged(t.database.db, digest.digestId, saved ?? [], resolved);
    expect(await sourcesOf(t.database.db, digest.digestId)).toEqual(resolved);
  });

  it('refuses a page link that is not an http(s) address, and stores nothing', async () => {
    const owner = await signUp(t);
    const response = await api(owner, 'POST', '/api/digests', {
      sources: [
        { type: 'RSS', feedLink: feed('rss2.xml'), pageUrl: 'javascript:alert(1)' },
        { type: 'DATE' },
        { type: 'DATE' },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Page link must be an http(s) URL');
    expect((await api(owner, 'GET', '/api/digests')).json().digests).toEqual([]);
  });
});

describe('upgrading: RSS sources saved before with a web page as their feed link', () => {
  it('are read as they are, and their first issue after the upgrade saves the feed and keeps the page', async () => {
    const old = await createDatabaseAt('0015_final_dot');
    let upgraded: TestApi | undefined;
    try {
      // The previous release's stored shape: the pasted page as `feedLink`, no `pageUrl`.
      const oldSources = [
        {
          type: 'RSS',
          name: '',
          showHeading: true,
          feedLink: feed('page-with-feed.html'),
          sourceName: 'Field Notes',
          favicon: null,
          numberOfPosts: 6,
          images: 'show',
          postBody: 'paragraph',
          layout: 2,
        },
        { type: 'DATE', name: '', showHeading: true },
        { type: 'DATE', name: '', showHeading: true },
      ];
      const [user] = (await old.sql(
        `insert into users (email, method, username, confirmed) values ('ann@example.com', 'email', 'ann', true) returning user_id`,
      )) as { user_id: string }[];
      const [row] = (await old.sql(
        `insert into digests (user_id, name, sources) values ($1, 'Old digest', $2::jsonb) returning digest_id`,
        [user?.user_id, JSON.stringify(oldSources)],
      )) as { digest_id: string }[];
      const digestId = row?.digest_id ?? '';

      await old.upgrade();
      upgraded = await startTestApi({ database: old.handle, fakes });

      // Today's rules read the old row unchanged.
      const stored = (await sourcesOf(old.db, digestId)) ?? [];
      expect(stored.map((source) => sourceSchema.parse(source))).toMatchObject(oldSources);
      fakes.resetHits();
      expect(await build(upgraded, old.db, digestId)).toMatchObject({ status: 'built' });
      // The upgrade also turned "Only new items" on (migration 0016_sent_items).
      expect((await sourcesOf(old.db, digestId))?.[0]).toEqual({
        ...oldSources[0],
        feedLink: feed('rss2.xml'),
        pageUrl: feed('page-with-feed.html'),
        onlyNew: true,
      });
      // The next issue reads the saved feed (not the page) and finds nothing new in it.
      expect(await build(upgraded, old.db, digestId)).toMatchObject({
        status: 'empty',
        reason: NOTHING_NEW_MESSAGE,
      });
      expect(fakes.hits('/feeds', '/page-with-feed.html')).toBe(1);
      expect(fakes.hits('/feeds', '/rss2.xml')).toBe(2);
    } finally {
      await upgraded?.close();
      await old.close();
    }
    // An old database is migrated from nothing and a second app started on it: slower than a copy.
  }, 120_000);
});
