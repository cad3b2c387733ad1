import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBuilds, digestNewsletterItems, issueRuns } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { recordCarriedNewsletters } from '#server/modules/newsletters/digest-newsletters.repository';
import { receiveTestNewsletter } from '#server/modules/newsletters/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { buildIssue } from './build-issue.usecases';

// Issues of digests with a Newsletters block (issue 14): built for real on the test database, with no
// provider at all: today's date has no news of its own, so a newsletter is the only news there is.
let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ appUrl: 'http://app.test' });
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);

const NO_NEWS = [{ type: 'DATE' }, { type: 'DATE', name: 'Today again' }];
const withNewsletters = (settings: object = {}) => [...NO_NEWS, { type: 'NEWSLETTERS', ...settings }];

async function build(digestId: string) {
  const [run] = await t.database.db.insert(issueRuns).values({ digestId, slot: new Date() }).returning();
  if (!run) throw new Error('no run');
  return buildIssue(t.modules.issuesDeps, run.runId);
}

const buildsOf = (digestId: string) =>
  t.database.db
    .select()
    .from(digestBuilds)
    .where(eq(digestBuilds.digestId, digestId))
    .orderBy(digestBuilds.buildNumber);

async function newsletter(owner: TestUser, subject: string) {
  return receiveTestNewsletter(t.database.db, owner.userId, {
    subject,
    fromName: `${subject} sender`,
    fromAddress: `${subject.toLowerCase().replace(/\W+/g, '-')}@letters.example`,
    html: `<p>${subject} body</p>`,
    text: `${subject} excerpt`,
  });
}

describe('an issue is not empty while newsletters are waiting', () => {
  it('is not sent with no newsletter waiting, and is built once one has arrived', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { sources: withNewsletters() });
    expect(await build(digest.digestId)).toMatchObject({ status: 'empty' });
    await newsletter(owner, 'First Letter');
    expect(await build(digest.digestId)).toMatchObject({ status: 'built' });
    const [issue] = await buildsOf(digest.digestId);
    expect(issue?.html).toContain('First Letter');
    expect(issue?.html).toContain('First Letter excerpt');
  });
});

describe('never twice: an issue carries a newsletter once', () => {
  it('records what an issue carried; the next carries only what arrived since', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { sources: withNewsletters({ layout: 'full' }) });
    const { messageId } = await newsletter(owner, 'Carried Once');
    expect(await build(digest.digestId)).toMatchObject({ status: 'built' });
    const carried = await t.database.db
      .select()
      .from(digestNewsletterItems)
      .where(eq(digestNewsletterItems.digestId, digest.digestId));
    const [first] = await buildsOf(digest.digestId);
    expect(carried).toEqual([
      expect.objectContaining({ messageId, buildId: first?.buildId, digestId: digest.digestId }),
    ]);
    expect(first?.html).toContain('Carried Once body');

    // Nothing new: nothing to send (the date alone is not news).
    expect(await build(digest.digestId)).toMatchObject({ status: 'empty' });
    await newsletter(owner, 'Next One');
    expect(await build(digest.digestId)).toMatchObject({ status: 'built' });
    const [, second] = await buildsOf(digest.digestId);
    expect(second?.html).toContain('Next One body');
    expect(second?.html).not.toContain('Carried Once');
  });

  it('"Send latest digest" follows the same rule', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { sources: withNewsletters() });
    await newsletter(owner, 'Manual Letter');
    const first = await api(owner, 'POST', `/api/digests/rebuild/${digest.digestId}`);
    expect(first.statusCode).toBe(200);
    const again = await api(owner, 'POST', `/api/digests/rebuild/${digest.digestId}`);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(/^Nothing to send/);
    const builds = await buildsOf(digest.digestId);
    expect(builds).toHaveLength(1);
    expect(builds[0]?.html).toContain('Manual Letter');
  });

  it('an issue built meanwhile that carried a newsletter takes it out of this one, under the digest’s lock', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [...NO_NEWS.slice(1), { type: 'NEWSLETTERS' }, { type: 'NEWSLETTERS', name: 'Again' }],
    });
    const raced = await newsletter(owner, 'Raced Letter');
    // Another build of the digest commits, carrying it, after this one fetched and before it stores.
    const deps = t.modules.issuesDeps;
    const connectors = {
      ...deps.connectors,
      NEWSLETTERS: {
        type: 'NEWSLETTERS' as const,
        fetchContent: async (...args: Parameters<typeof deps.connectors.NEWSLETTERS.fetchContent>) => {
          const content = await deps.connectors.NEWSLETTERS.fetchContent(...args);
          await recordCarriedNewsletters(t.database.db, {
            digestId: digest.digestId,
            buildId: null,
            messageIds: [raced.messageId],
            at: new Date(),
          });
          return content;
        },
      },
    };
    const [run] = await t.database.db
      .insert(issueRuns)
      .values({ digestId: digest.digestId, slot: new Date() })
      .returning();
    if (!run) throw new Error('no run');
    const outcome = await buildIssue({ ...deps, connectors }, run.runId);
    expect(outcome).toEqual({
      status: 'empty',
      reason: 'Nothing to send: an issue built at the same time carried the new newsletters.',
    });
    expect(await buildsOf(digest.digestId)).toEqual([]);
  });

  it('two digests of the same user each carry it once', async () => {
    const owner = await signUp(t);
    const one = await createDigest(t.app, owner, { sources: withNewsletters() });
    const two = await createDigest(t.app, owner, { sources: withNewsletters() });
    await newsletter(owner, 'Shared Letter');
    for (const digest of [one, two]) {
      expect(await build(digest.digestId)).toMatchObject({ status: 'built' });
      expect(await build(digest.digestId)).toMatchObject({ status: 'empty' });
      const [issue] = await buildsOf(digest.digestId);
      expect(issue?.html).toContain('Shared Letter');
    }
  });

  it('a digest without a Newsletters block carries none and records none', async () => {
    const owner = await signUp(t);
    await newsletter(owner, 'Unasked');
    const digest = await createDigest(t.app, owner, {
      sources: [...NO_NEWS, { type: 'DATE', name: 'Third date' }],
    });
    expect(await build(digest.digestId)).toMatchObject({ status: 'empty' });
    const carried = await t.database.db
      .select()
      .from(digestNewsletterItems)
      .where(eq(digestNewsletterItems.digestId, digest.digestId));
    expect(carried).toEqual([]);
  });
});

describe('public pages say how many newsletters an issue carried, never which', () => {
  it('public_html shows the block’s title and "N newsletters": no subject, sender, excerpt or HTML', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: withNewsletters({ name: 'My letters', layout: 'full' }),
    });
    const shared = await api(owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, {
      visibility: 'public',
    });
    await newsletter(owner, 'Private Matter');
    await newsletter(owner, 'Other Matter');
    expect(await build(digest.digestId)).toMatchObject({ status: 'built' });
    const [issue] = await buildsOf(digest.digestId);
    expect(issue?.html).toContain('Private Matter body');

    const token = String(shared.json().shareUrl).split('/').pop();
    const page = await api(null, 'GET', `/api/digests/share/${token}/1`);
    expect(page.statusCode).toBe(200);
    for (const html of [issue?.publicHtml ?? '', page.body]) {
      for (const secret of [
        'Private Matter',
        'Other Matter',
        'letters.example',
        'excerpt',
        '/newsletters/',
      ]) {
        expect(html).not.toContain(secret);
      }
      expect(html).toMatch(/My letters<\/h2>[\s\S]{0,400}?>2 newsletters</);
    }
  });
});
