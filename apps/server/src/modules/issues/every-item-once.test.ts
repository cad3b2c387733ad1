import { NOTHING_NEW_MESSAGE } from '@digest/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, digestSentItems, digests, issueRuns } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { signUp } from '#server/modules/users/test-support';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { buildIssue } from './build-issue.usecases';

let fakes: FakeProviders;
let smtp: TestSmtpServer;
let t: TestApi;

beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer();
  t = await startTestApi({ fakes, smtp, appUrl: 'http://app.test', mailDomain: 'digest.test' });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);
const deps = () => t.modules.issuesDeps;
const feed = (name: string) => `${fakes.origin}/feeds/${name}`;
const fieldNotes = (settings: object = {}) => ({
  type: 'RSS',
  feedLink: feed('rss2.xml'),
  sourceName: 'Field Notes',
  ...settings,
});
const atomFeed = (settings: object = {}) => ({
  type: 'RSS',
  feedLink: feed('atom.xml'),
  sourceName: 'Atom Notes',
  ...settings,
});
/** A story of rss2.xml, and one of atom.xml. */
const FIELD_NOTES_STORY = 'The night shift that keeps the trams running';

async function build(digestId: string, slot: Date) {
  const [run] = await t.database.db.insert(issueRuns).values({ digestId, slot }).returning();
  if (!run) throw new Error('no run');
  return { run, outcome: await buildIssue(deps(), run.runId) };
}

const issuesOf = (digestId: string) =>
  t.database.db
    .select({ html: digestBuilds.html, text: digestBuilds.text })
    .from(digestBuilds)
    .where(eq(digestBuilds.digestId, digestId))
    .orderBy(asc(digestBuilds.buildNumber));

const runOf = async (runId: string) =>
  (await t.database.db.select().from(issueRuns).where(eq(issueRuns.runId, runId)))[0];

const sentOf = (digestId: string) =>
  t.database.db.select().from(digestSentItems).where(eq(digestSentItems.digestId, digestId));

const hour = (n: number) => new Date(Date.UTC(2026, 10, 20, n));

describe('only new items: an issue leaves out what an earlier issue of the digest carried', () => {
  it('sends a feed’s items once; the next issue says "Nothing new since the last issue." in that block (HTML and text), and repeats a source whose "Only new items" is off', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [fieldNotes(), atomFeed({ onlyNew: false }), { type: 'DATE' }],
    });

    const first = await build(digest.digestId, hour(1));
    expect(first.outcome).toMatchObject({ status: 'built' });
    const second = await build(digest.digestId, hour(2));
    expect(second.outcome).toMatchObject({ status: 'built', build: { buildNumber: 2 } });

    const [one, two] = await issuesOf(digest.digestId);
    expect(one?.html).toContain(FIELD_NOTES_STORY);
    expect(one?.html).not.toContain(NOTHING_NEW_MESSAGE);
    expect(two?.html).not.toContain(FIELD_NOTES_STORY);
    expect(two?.html).toContain(NOTHING_NEW_MESSAGE);
    expect(two?.text).toMatch(new RegExp(`Field Notes[\\s\\S]*${NOTHING_NEW_MESSAGE.replace('.', '\\.')}`));
    // The Atom source repeats its items, as its owner asked: its block is the same in both issues.
    expect(one?.html).toContain('Why my build got 4× faster');
    expect(two?.html).toContain('Why my build got 4× faster');
    expect((await sentOf(digest.digestId)).length).toBeGreaterThan(0);
  });

  it('records each carried item once per source (one row per item, not per issue)', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [
        fieldNotes({ numberOfPosts: 3 }),
        atomFeed({ onlyNew: false, numberOfPosts: 2 }),
        { type: 'DATE' },
      ],
    });
    await build(digest.digestId, hour(1));
    await build(digest.digestId, hour(2));
    const rows = await sentOf(digest.digestId);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.sourceKey)).size).toBe(2);
  });

  it('shows an item again that was sent more than the bound ago (90 days)', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [fieldNotes(), { type: 'DATE' }, atomFeed()],
    });
    await build(digest.digestId, hour(1));
    await t.database.db
      .update(digestSentItems)
      .set({ firstSentAt: new Date(Date.now() - 91 * 24 * 60 * 60 * 1000) })
      .where(eq(digestSentItems.digestId, digest.digestId));
    const again = await build(digest.digestId, hour(2));
    expect(again.outcome).toMatchObject({ status: 'built' });
    const [, two] = await issuesOf(digest.digestId);
    expect(two?.html).toContain(FIELD_NOTES_STORY);
  });

  it('does not send an issue whose list sources have nothing new and nothing else to say; the run keeps the reason', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [fieldNotes(), { type: 'DATE' }, atomFeed()],
    });
    await build(digest.digestId, hour(1));
    const second = await build(digest.digestId, hour(2));
    expect(second.outcome).toEqual({ status: 'empty', reason: NOTHING_NEW_MESSAGE });
    expect(await runOf(second.run.runId)).toMatchObject({ status: 'empty', reason: NOTHING_NEW_MESSAGE });
    expect(await issuesOf(digest.digestId)).toHaveLength(1);
  });
});

describe('send only when something is new (a digest option, off by default)', () => {
  it('skips an issue whose list sources have no new item, even when their blocks repeat old ones; the run keeps the reason', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [fieldNotes({ onlyNew: false }), atomFeed({ onlyNew: false }), { type: 'DATE' }],
      sendOnlyWhenNew: true,
    });
    expect(digest.sendOnlyWhenNew).toBe(true);
    expect((await build(digest.digestId, hour(1))).outcome).toMatchObject({ status: 'built' });
    const second = await build(digest.digestId, hour(2));
    expect(second.outcome).toEqual({ status: 'empty', reason: NOTHING_NEW_MESSAGE });
    expect(await runOf(second.run.runId)).toMatchObject({ status: 'empty', reason: NOTHING_NEW_MESSAGE });
    expect(await issuesOf(digest.digestId)).toHaveLength(1);

    // The digest's page shows why the last issue was not sent.
    const detail = (await api(owner, 'GET', `/api/digests/${digest.digestId}`)).json().digest;
    expect(detail.lastRun).toMatchObject({ status: 'empty', reason: NOTHING_NEW_MESSAGE });
  });

  it('is off by default: the same digest without it sends the repeated items', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [fieldNotes({ onlyNew: false }), atomFeed({ onlyNew: false }), { type: 'DATE' }],
    });
    expect(digest.sendOnlyWhenNew).toBe(false);
    await build(digest.digestId, hour(1));
    expect((await build(digest.digestId, hour(2))).outcome).toMatchObject({ status: 'built' });
  });

  it('is changed with PATCH, refuses what is not true or false with a message naming the field, and changes nothing then', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const on = await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, { sendOnlyWhenNew: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().digest.sendOnlyWhenNew).toBe(true);
    for (const value of ['yes', 1, null]) {
      const bad = await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, { sendOnlyWhenNew: value });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('sendOnlyWhenNew');
    }
    const badCreate = await api(owner, 'POST', '/api/digests', {
      sources: [fieldNotes(), { type: 'DATE' }, atomFeed({ onlyNew: 'no' })],
    });
    expect(badCreate.statusCode).toBe(400);
    expect(badCreate.json().message).toContain('Only new items must be true or false');
    const [row] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    expect(row?.sendOnlyWhenNew).toBe(true);

    // Another user's digest: not found, unchanged.
    const other = await signUp(t);
    const stolen = await api(other, 'PATCH', `/api/digests/${digest.digestId}`, { sendOnlyWhenNew: false });
    expect(stolen.statusCode).toBe(404);
    const [after] = await t.database.db.select().from(digests).where(eq(digests.digestId, digest.digestId));
    expect(after?.sendOnlyWhenNew).toBe(true);
  });
});

describe('"Send latest digest" follows the same rules', () => {
  it('mails the new items, then answers 422 "Nothing new since the last issue." and stores nothing', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [fieldNotes(), { type: 'DATE' }, atomFeed()],
    });
    const first = await api(owner, 'POST', `/api/digests/rebuild/${digest.digestId}`);
    expect(first.statusCode).toBe(200);
    const second = await api(owner, 'POST', `/api/digests/rebuild/${digest.digestId}`);
    expect(second.statusCode).toBe(422);
    expect(second.json()).toEqual({ code: 'NOTHING_TO_SEND', message: NOTHING_NEW_MESSAGE });
    expect(await issuesOf(digest.digestId)).toHaveLength(1);
  });
});
