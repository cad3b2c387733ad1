import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digestBuilds, digestSubscribers, issueRuns, users } from '#server/db/schema';
import {
  deliver,
  STUCK_SENDING_MS,
  settleStuckDeliveries,
} from '#server/modules/deliveries/deliveries.usecases';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { addFriends } from '#server/modules/subscribers/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { MAILER_MAX_CONNECTIONS } from '#server/platform/mailer';
import {
  closeSmtpServers,
  type Received,
  startSmtpServer,
  type TestSmtpServer,
} from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { buildIssue, buildIssueAttempt } from './build-issue.usecases';

let fakes: FakeProviders;
let smtp: TestSmtpServer;
/** SMTP answers to the DATA of the next messages (a code per message, then acceptance). */
const dataAnswers: number[] = [];
/** While set, the SMTP server holds every message until it resolves. */
let hold: Promise<void> | undefined;
let t: TestApi;

beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer({
    rejectData: () => dataAnswers.shift(),
    beforeAnswer: () => hold ?? Promise.resolve(),
  });
  t = await startTestApi({
    fakes,
    smtp,
    appUrl: 'http://app.test',
    mailDomain: 'digest.test',
  });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);
const deps = () => t.modules.issuesDeps;
const deliveryDeps = () => t.modules.deliveryDeps;

const feed = (name: string) => `${fakes.origin}/feeds/${name}`;
const rssOk = () => ({ type: 'RSS', feedLink: feed('rss2.xml'), sourceName: 'Field Notes' });
const rssMissing = () => ({ type: 'RSS', feedLink: feed('missing.xml'), sourceName: 'Vanished Feed' });

async function queuedRun(digestId: string, slot = new Date()) {
  const [run] = await t.database.db.insert(issueRuns).values({ digestId, slot }).returning();
  if (!run) throw new Error('no run');
  return run;
}

const deliveriesOf = (digestId: string) =>
  t.database.db.select().from(deliveries).where(eq(deliveries.digestId, digestId)).orderBy(deliveries.kind);

/** The delivery jobs queued for these deliveries: their ids, and how long each waits to start. */
async function deliverJobsOf(deliveryIds: string[]) {
  const jobs = await t.database.db.execute(
    sql`select data->>'deliveryId' as id, extract(epoch from start_after - now())::float as starts_in
        from pgboss.job where name = 'issues.deliver' and data->>'deliveryId' in (${sql.join(
          deliveryIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return (jobs as unknown as { rows: { id: string; starts_in: number }[] }).rows;
}

/** How many of the Field Notes feed's stories an issue links. */
const storiesIn = (html = '') => new Set(html.match(/fieldnotes\.example\.com\/2026\/11\/[\w-]+/g)).size;

/** The items a digest's issues carried, as stored (hashed), in a stable order. */
async function sentItemsOf(digestId: string) {
  const rows = await t.database.db.execute(
    sql`select source_key, identity from digest_sent_items where digest_id = ${digestId}
        order by source_key, identity`,
  );
  return (rows as unknown as { rows: { source_key: string; identity: string }[] }).rows;
}

/**
 * What `build` answers while another connection (another process's build) holds `statement` uncommitted:
 * committed once the build waits on a lock in a statement containing `waitsFor`. PostgreSQL only.
 */
async function whileUncommitted<T>(
  statement: string,
  values: unknown[],
  waitsFor: string,
  build: () => Promise<T>,
): Promise<T> {
  if (t.database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const other = new pg.Client({ connectionString: t.database.connectionString });
  await other.connect();
  try {
    await other.query('begin');
    await other.query(statement, values);
    const building = build();
    const waiting = async () => {
      const rows = await t.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query like ${`%${waitsFor}%`}`,
      );
      return (rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
    };
    await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThan(0);
    await other.query('commit');
    return await building;
  } finally {
    await other.end();
  }
}

const received = (messageId: string) => smtp.received.filter((mail) => mail.parsed.messageId === messageId);
/** A header as sent, unfolded (long ones are folded over several lines). */
const header = (mail: Received, name: string) =>
  mail.parsed.headerLines
    .find((line) => line.key === name.toLowerCase())
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ');

async function digestWithFriend(owner: TestUser, sources: object[]) {
  const digest = await createDigest(t.app, owner, { name: 'Morning Notes', sources });
  await addFriends(t.database.db, digest.digestId, ['friend@example.com']);
  await addFriends(t.database.db, digest.digestId, ['gone@example.com'], 'unsubscribed');
  return digest;
}

describe('building an issue', () => {
  it('fetches every source, stores issue 1 with the blocks in order and a failing source in its block, and queues one delivery per recipient', async () => {
    const owner = await signUp(t);
    const digest = await digestWithFriend(owner, [
      rssOk(),
      { type: 'HACKER_NEWS' },
      rssMissing(),
      { type: 'DATE' },
    ]);
    const run = await queuedRun(digest.digestId);

    const outcome = await buildIssue(deps(), run.runId);
    expect(outcome).toMatchObject({ status: 'built', build: { buildNumber: 1 } });

    const [build] = await t.database.db
      .select()
      .from(digestBuilds)
      .where(eq(digestBuilds.digestId, digest.digestId));
    expect(build?.buildNumber).toBe(1);
    const html = build?.html ?? '';
    expect(html).toContain('<title>Morning Notes</title>');
    const rss = html.indexOf('The night shift that keeps the trams running');
    const gone = html.lastIndexOf('Vanished Feed'); // after the preview line, which names every block
    expect(rss).toBeGreaterThan(0);
    expect(gone).toBeGreaterThan(rss);
    expect(build?.text).toContain('The night shift that keeps the trams running');
    expect(build?.text).toMatch(/Vanished Feed[\s\S]*(not found|404|could not)/i);

    const [stored] = await t.database.db.select().from(issueRuns).where(eq(issueRuns.runId, run.runId));
    expect(stored).toMatchObject({ status: 'built', buildId: build?.buildId });

    const rows = await deliveriesOf(digest.digestId);
    expect(rows.map((row) => [row.kind, row.recipient, row.state])).toEqual([
      ['owner', owner.email, 'pending'],
      ['subscriber', 'friend@example.com', 'pending'],
    ]);
    for (const row of rows) expect(row.messageId).toBe(`<${row.deliveryId}@digest.test>`);
    expect(await deliverJobsOf(rows.map((row) => row.deliveryId))).toHaveLength(2);

    // The run is finished: building it again changes nothing.
    expect(await buildIssue(deps(), run.runId)).toEqual({ status: 'done-before' });
    expect(await deliveriesOf(digest.digestId)).toHaveLength(2);
  });

  it('does not store or send an issue whose sources all failed or had nothing; the run keeps the reason', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [rssMissing(), { type: 'DATE' }, rssMissing()],
    });
    const run = await queuedRun(digest.digestId);
    const outcome = await buildIssue(deps(), run.runId);
    expect(outcome).toEqual({
      status: 'empty',
      reason: 'Nothing to send: 2 of 3 sources failed and the others had nothing new.',
    });
    const [stored] = await t.database.db.select().from(issueRuns).where(eq(issueRuns.runId, run.runId));
    expect(stored).toMatchObject({
      status: 'empty',
      reason: outcome.status === 'empty' ? outcome.reason : '',
    });
    expect(
      await t.database.db.select().from(digestBuilds).where(eq(digestBuilds.digestId, digest.digestId)),
    ).toEqual([]);
    expect(await deliveriesOf(digest.digestId)).toEqual([]);
  });

  it('two runs of one digest built at once carry each item once: one issue is stored and mailed, the other finds nothing new', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [rssOk(), { type: 'HACKER_NEWS' }, { type: 'DATE' }],
    });
    const first = await queuedRun(digest.digestId, new Date('2026-11-20T07:00:00Z'));
    const second = await queuedRun(digest.digestId, new Date('2026-11-20T07:01:00Z'));

    const outcomes = await Promise.all([buildIssue(deps(), first.runId), buildIssue(deps(), second.runId)]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['built', 'empty']);
    const builds = await t.database.db
      .select()
      .from(digestBuilds)
      .where(eq(digestBuilds.digestId, digest.digestId));
    expect(builds.map((build) => build.buildNumber)).toEqual([1]);
    const runs = await t.database.db.select().from(issueRuns).where(eq(issueRuns.digestId, digest.digestId));
    expect(runs.map((run) => run.status).sort()).toEqual(['built', 'empty']);
    expect(runs.find((run) => run.status === 'built')?.buildId).toBe(builds[0]?.buildId);
    expect((await deliveriesOf(digest.digestId)).map((row) => row.buildId)).toEqual([builds[0]?.buildId]);
    const items = await t.database.db.execute(
      sql`select count(*)::int as items, count(distinct (source_key, identity))::int as distinct_items
          from digest_sent_items where digest_id = ${digest.digestId}`,
    );
    const [counted] = (items as unknown as { rows: { items: number; distinct_items: number }[] }).rows;
    expect(counted?.items).toBeGreaterThan(0);
    expect(counted?.items).toBe(counted?.distinct_items);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'stores the issue under the next number when another issue of the digest took its number meanwhile',
    async () => {
      const owner = await signUp(t);
      const digest = await createDigest(t.app, owner, {
        sources: [rssOk(), { type: 'HACKER_NEWS' }, { type: 'DATE' }],
      });
      const run = await queuedRun(digest.digestId);
      // Another build (another process) has stored issue 1 and not yet committed.
      const outcome = await whileUncommitted(
        `insert into digest_builds (build_id, digest_id, build_number, html, text, public_html, created_at)
         values (gen_random_uuid(), $1, 1, '', '', '', now())`,
        [digest.digestId],
        'insert into digest_builds',
        () => buildIssue(deps(), run.runId),
      );

      expect(outcome).toMatchObject({ status: 'built', build: { buildNumber: 2 } });
      const numbers = await t.database.db
        .select({ number: digestBuilds.buildNumber })
        .from(digestBuilds)
        .where(eq(digestBuilds.digestId, digest.digestId));
      expect(numbers.map((row) => row.number).sort()).toEqual([1, 2]);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL).each([
    ['a build job (the store statement on its own)', 'caller' as const],
    ['"Send latest digest" (in a transaction with its delivery jobs)', 'jobs' as const],
  ])(
    '%s leaves out an item another issue carried meanwhile, and keeps nothing of the attempt that met it',
    async (_, mailBy) => {
      const owner = await signUp(t);
      // The items a digest reading this feed carries (the same keys for any digest); its only list source.
      const sources = [rssOk(), { type: 'DATE' }, { type: 'DATE' }];
      const earlier = await createDigest(t.app, owner, { sources });
      await buildIssue(deps(), (await queuedRun(earlier.digestId)).runId, { mailBy: 'caller' });
      const keys = await sentItemsOf(earlier.digestId);
      expect(keys.length).toBeGreaterThan(1);
      const digest = await createDigest(t.app, owner, { sources });
      const run = await queuedRun(digest.digestId);
      const [taken] = keys;

      // Another issue of the digest (another process) has carried one of the items and not yet committed.
      const outcome = await whileUncommitted(
        `insert into digest_sent_items (digest_id, source_key, identity, first_sent_at)
         values ($1, $2, $3, now())`,
        [digest.digestId, taken?.source_key, taken?.identity],
        'insert into digest_sent_items',
        () => buildIssue(deps(), run.runId, { mailBy }),
      );

      // Had the failed attempt kept the items it wrote, the next would find nothing new and send nothing.
      expect(outcome).toMatchObject({ status: 'built', build: { buildNumber: 1 } });
      expect(await sentItemsOf(digest.digestId)).toEqual(keys);
      const [issue] = await t.database.db
        .select({ html: digestBuilds.html })
        .from(digestBuilds)
        .where(eq(digestBuilds.digestId, digest.digestId));
      const [earlierIssue] = await t.database.db
        .select({ html: digestBuilds.html })
        .from(digestBuilds)
        .where(eq(digestBuilds.digestId, earlier.digestId));
      expect(storiesIn(issue?.html)).toBe(storiesIn(earlierIssue?.html) - 1);
      // One delivery, of the attempt that stored the issue; with a job only when the caller asked for jobs.
      const rows = await deliveriesOf(digest.digestId);
      expect(rows).toHaveLength(1);
      expect(await deliverJobsOf(rows.map((row) => row.deliveryId))).toHaveLength(mailBy === 'jobs' ? 1 : 0);
    },
  );

  it('skips a scheduled run of a digest paused after it was queued', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [rssOk(), { type: 'DATE' }, { type: 'HACKER_NEWS' }],
    });
    const run = await queuedRun(digest.digestId);
    await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, { active: false });
    expect(await buildIssue(deps(), run.runId)).toMatchObject({ status: 'skipped' });
    expect(await deliveriesOf(digest.digestId)).toEqual([]);
  });
});

describe('delivering an issue', () => {
  async function builtIssue() {
    const owner = await signUp(t);
    await api(owner, 'PATCH', '/api/users/me', { fullName: 'Ada Lovelace' });
    const digest = await digestWithFriend(owner, [rssOk(), { type: 'DATE' }, { type: 'HACKER_NEWS' }]);
    await buildIssue(deps(), (await queuedRun(digest.digestId)).runId);
    const rows = await deliveriesOf(digest.digestId);
    const ownerCopy = rows.find((row) => row.kind === 'owner');
    const friendCopy = rows.find((row) => row.kind === 'subscriber');
    if (!ownerCopy || !friendCopy) throw new Error('deliveries missing');
    return { owner, digest, ownerCopy, friendCopy };
  }

  const stateOf = async (deliveryId: string) =>
    (await t.database.db.select().from(deliveries).where(eq(deliveries.deliveryId, deliveryId)))[0];

  it("sends the owner's copy from MAIL_FROM (its envelope sender tagged with the delivery's bounce token) with its stable Message-ID, List-Id and a link to the digest in the app", async () => {
    const { owner, digest, ownerCopy } = await builtIssue();
    await deliver(deliveryDeps(), ownerCopy.deliveryId);
    const [mail] = received(ownerCopy.messageId);
    if (!mail) throw new Error('not received');
    expect(mail.rcptTo).toEqual([owner.email]);
    expect(mail.mailFrom).toBe(`digest+b-${ownerCopy.bounceToken}@localhost`);
    expect(mail.parsed.from?.value).toEqual([{ name: 'Digest', address: 'digest@localhost' }]);
    expect(mail.parsed.subject).toBe('Digest “Morning Notes”, issue 1');
    expect(header(mail, 'List-Id')).toBe(`"Morning Notes" <${digest.digestId}.digests.app.test>`);
    expect(header(mail, 'List-Unsubscribe')).toBeUndefined();
    expect(mail.parsed.html).toContain(`http://app.test/digests/${digest.digestId}`);
    expect(mail.parsed.text).toContain(`http://app.test/digests/${digest.digestId}`);
    expect(mail.parsed.html).toContain('The night shift that keeps the trams running');
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({
      state: 'sent',
      attempts: 1,
      lastError: null,
    });
    expect((await stateOf(ownerCopy.deliveryId))?.sentAt).toBeInstanceOf(Date);
  });

  it("sends a subscriber's copy with List-Unsubscribe and One-Click tied to that subscriber and digest", async () => {
    const { owner, digest, friendCopy } = await builtIssue();
    await deliver(deliveryDeps(), friendCopy.deliveryId);
    const [mail] = received(friendCopy.messageId);
    if (!mail) throw new Error('not received');
    const [row] = await t.database.db
      .select()
      .from(digestSubscribers)
      .where(eq(digestSubscribers.subscriberId, friendCopy.subscriberId as string));
    expect(mail.rcptTo).toEqual(['friend@example.com']);
    expect(header(mail, 'List-Unsubscribe')).toBe(
      `<http://app.test/api/subscriptions/${row?.token}/unsubscribe>`,
    );
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.replyTo?.text).toBe(owner.email);
    expect(mail.parsed.html).toContain(`http://app.test/unsubscribe/${row?.token}`);
    expect(mail.parsed.html).not.toContain(`http://app.test/digests/${digest.digestId}"`);
  });

  it('puts a temporary SMTP failure back to pending with the error, and the retry sends it once with the same Message-ID', async () => {
    const { ownerCopy } = await builtIssue();
    dataAnswers.push(451);
    await expect(
      deliver(deliveryDeps(), ownerCopy.deliveryId, { id: 'j', retryCount: 0, retryLimit: 8 }),
    ).rejects.toMatchObject({
      responseCode: 451,
    });
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await stateOf(ownerCopy.deliveryId))?.lastError).toMatch(/^451 /);

    await deliver(deliveryDeps(), ownerCopy.deliveryId, { id: 'j', retryCount: 1, retryLimit: 8 });
    await deliver(deliveryDeps(), ownerCopy.deliveryId, { id: 'j', retryCount: 2, retryLimit: 8 });
    expect(received(ownerCopy.messageId)).toHaveLength(1);
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('fails a delivery for good on a permanent refusal, keeping the error, without throwing', async () => {
    const { ownerCopy } = await builtIssue();
    dataAnswers.push(550);
    await deliver(deliveryDeps(), ownerCopy.deliveryId, { id: 'j', retryCount: 0, retryLimit: 8 });
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await stateOf(ownerCopy.deliveryId))?.lastError).toMatch(/^550 .*Message refused/);
    expect(received(ownerCopy.messageId)).toHaveLength(0);
  });

  it('fails a delivery for good when its last attempt meets a temporary failure', async () => {
    const { ownerCopy } = await builtIssue();
    dataAnswers.push(451);
    await deliver(deliveryDeps(), ownerCopy.deliveryId, { id: 'j', retryCount: 8, retryLimit: 8 });
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'failed' });
  });

  it('marks a delivery left sending by an attempt that died as uncertain, and never sends it', async () => {
    const { ownerCopy } = await builtIssue();
    await t.database.db
      .update(deliveries)
      .set({ state: 'sending' })
      .where(eq(deliveries.deliveryId, ownerCopy.deliveryId));
    await deliver(deliveryDeps(), ownerCopy.deliveryId);
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'uncertain' });
    expect((await stateOf(ownerCopy.deliveryId))?.lastError).toMatch(/may or may not have accepted it/);
    expect(received(ownerCopy.messageId)).toHaveLength(0);
  });

  it('lists a delivery stuck sending for over an hour as uncertain (its last attempt died)', async () => {
    const { ownerCopy, friendCopy } = await builtIssue();
    const now = new Date();
    await t.database.db
      .update(deliveries)
      .set({ state: 'sending', sendingAt: new Date(now.getTime() - STUCK_SENDING_MS - 1000) })
      .where(eq(deliveries.deliveryId, ownerCopy.deliveryId));
    await t.database.db
      .update(deliveries)
      .set({ state: 'sending', sendingAt: new Date(now.getTime() - 60_000) })
      .where(eq(deliveries.deliveryId, friendCopy.deliveryId));
    expect(await settleStuckDeliveries(deliveryDeps())).toBeGreaterThanOrEqual(1);
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'uncertain' });
    expect(await stateOf(friendCopy.deliveryId)).toMatchObject({ state: 'sending' });
  });

  it('does not mail a subscriber who unsubscribed before the send', async () => {
    const { friendCopy } = await builtIssue();
    await t.database.db
      .update(digestSubscribers)
      .set({ status: 'unsubscribed', unsubscribedAt: new Date() })
      .where(eq(digestSubscribers.subscriberId, friendCopy.subscriberId as string));
    await deliver(deliveryDeps(), friendCopy.deliveryId);
    expect(await stateOf(friendCopy.deliveryId)).toMatchObject({ state: 'cancelled' });
    expect(received(friendCopy.messageId)).toHaveLength(0);
  });

  it('claims no more deliveries at once than the mailer has connections (a crash leaves at most that many uncertain)', async () => {
    const issues = await Promise.all([1, 2, 3, 4].map(() => builtIssue()));
    const ids = issues.flatMap(({ ownerCopy, friendCopy }) => [ownerCopy.deliveryId, friendCopy.deliveryId]);
    let open!: () => void;
    hold = new Promise<void>((resolve) => {
      open = resolve;
    });
    const sending = Promise.all(ids.map((id) => deliver(deliveryDeps(), id)));
    const inSending = async () =>
      (await t.database.db.select().from(deliveries).where(inArray(deliveries.deliveryId, ids))).filter(
        (row) => row.state === 'sending',
      ).length;
    await expect.poll(inSending).toBe(MAILER_MAX_CONNECTIONS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await inSending()).toBe(MAILER_MAX_CONNECTIONS);
    hold = undefined;
    open();
    await sending;
    expect(await inSending()).toBe(0);
    for (const id of ids) expect(await stateOf(id)).toMatchObject({ state: 'sent' });
  });

  it('never sends a delivery twice', async () => {
    const { ownerCopy } = await builtIssue();
    await Promise.all([
      deliver(deliveryDeps(), ownerCopy.deliveryId),
      deliver(deliveryDeps(), ownerCopy.deliveryId),
    ]);
    await deliver(deliveryDeps(), ownerCopy.deliveryId);
    expect(received(ownerCopy.messageId)).toHaveLength(1);
  });

  it('holds a queued delivery whose owner is not verified at send time, and mails nothing', async () => {
    const { owner, ownerCopy, friendCopy } = await builtIssue();
    await t.database.db.update(users).set({ confirmed: false }).where(eq(users.userId, owner.userId));
    for (const copy of [ownerCopy, friendCopy]) {
      await deliver(deliveryDeps(), copy.deliveryId);
      expect(await stateOf(copy.deliveryId)).toMatchObject({ state: 'held' });
      expect(received(copy.messageId)).toHaveLength(0);
    }
  });
});

describe('a build job mails its own issue', () => {
  const stateOf = async (deliveryId: string) =>
    (await t.database.db.select().from(deliveries).where(eq(deliveries.deliveryId, deliveryId)))[0];

  it("sends every recipient's copy once the issue is stored, with no job per delivery", async () => {
    const owner = await signUp(t);
    const digest = await digestWithFriend(owner, [rssOk(), { type: 'DATE' }, { type: 'HACKER_NEWS' }]);
    const run = await queuedRun(digest.digestId);

    await buildIssueAttempt(deps(), run.runId);

    const rows = await deliveriesOf(digest.digestId);
    expect(rows.map((row) => [row.recipient, row.state, row.attempts])).toEqual([
      [owner.email, 'sent', 1],
      ['friend@example.com', 'sent', 1],
    ]);
    for (const row of rows) expect(received(row.messageId)).toHaveLength(1);
    expect(await deliverJobsOf(rows.map((row) => row.deliveryId))).toEqual([]);
  });

  it('a retry of a build job whose attempt died after storing the issue sends what it left unsent, once', async () => {
    const owner = await signUp(t);
    const digest = await digestWithFriend(owner, [rssOk(), { type: 'DATE' }, { type: 'HACKER_NEWS' }]);
    const run = await queuedRun(digest.digestId);
    // The attempt that died: the issue stored, the owner's copy not yet claimed, the friend's claimed and
    // killed before its final dot.
    await buildIssue(deps(), run.runId, { mailBy: 'caller' });
    const [ownerCopy, friendCopy] = await deliveriesOf(digest.digestId);
    if (!ownerCopy || !friendCopy) throw new Error('deliveries missing');
    await t.database.db
      .update(deliveries)
      .set({ state: 'sending', attempts: 1, beforeFinalDot: true, sendingAt: new Date() })
      .where(eq(deliveries.deliveryId, friendCopy.deliveryId));

    await buildIssueAttempt(deps(), run.runId, { id: 'j', retryCount: 1, retryLimit: 3 });
    await buildIssueAttempt(deps(), run.runId, { id: 'j', retryCount: 2, retryLimit: 3 });

    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'sent', attempts: 1 });
    expect(await stateOf(friendCopy.deliveryId)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(received(ownerCopy.messageId)).toHaveLength(1);
    expect(received(friendCopy.messageId)).toHaveLength(1);
    expect(
      await t.database.db.select().from(digestBuilds).where(eq(digestBuilds.digestId, digest.digestId)),
    ).toHaveLength(1);
  });

  it('hands a delivery that fails for now to its own job, which waits before it retries', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, {
      sources: [rssOk(), { type: 'DATE' }, { type: 'HACKER_NEWS' }],
    });
    dataAnswers.push(451);

    await buildIssueAttempt(deps(), (await queuedRun(digest.digestId)).runId);

    const [ownerCopy] = await deliveriesOf(digest.digestId);
    if (!ownerCopy) throw new Error('delivery missing');
    expect(ownerCopy).toMatchObject({ state: 'pending', attempts: 1 });
    expect(ownerCopy.lastError).toMatch(/^451 /);
    const jobs = await deliverJobsOf([ownerCopy.deliveryId]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.starts_in).toBeGreaterThan(5);
    expect(received(ownerCopy.messageId)).toHaveLength(0);

    await deliver(deliveryDeps(), ownerCopy.deliveryId, { id: 'j', retryCount: 0, retryLimit: 8 });
    expect(await stateOf(ownerCopy.deliveryId)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(received(ownerCopy.messageId)).toHaveLength(1);
  });

  it('the stuck sweep queues a delivery left pending for an hour with nothing to send it, and leaves recent ones', async () => {
    const owner = await signUp(t);
    const digest = await digestWithFriend(owner, [rssOk(), { type: 'DATE' }, { type: 'HACKER_NEWS' }]);
    await buildIssue(deps(), (await queuedRun(digest.digestId)).runId, { mailBy: 'caller' });
    const [ownerCopy, friendCopy] = await deliveriesOf(digest.digestId);
    if (!ownerCopy || !friendCopy) throw new Error('deliveries missing');
    const longAgo = new Date(Date.now() - STUCK_SENDING_MS - 1000);
    await t.database.db
      .update(deliveries)
      .set({ updatedAt: longAgo })
      .where(eq(deliveries.deliveryId, ownerCopy.deliveryId));

    expect(await settleStuckDeliveries(deliveryDeps())).toBeGreaterThanOrEqual(1);

    expect((await deliverJobsOf([ownerCopy.deliveryId, friendCopy.deliveryId])).map((job) => job.id)).toEqual(
      [ownerCopy.deliveryId],
    );
    expect((await stateOf(ownerCopy.deliveryId))?.updatedAt.getTime()).toBeGreaterThan(longAgo.getTime());
    expect(await stateOf(friendCopy.deliveryId)).toMatchObject({ state: 'pending' });
  });
});

describe('the storage quota of an account (ISSUE_STORAGE_QUOTA_MB): its oldest issues go first', () => {
  const MB = 1024 * 1024;
  const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

  /** A digest of `owner` with issues 1–3 of 1 MB each, the oldest first, each already mailed. */
  async function digestWithOldIssues(owner: TestUser) {
    const digest = await createDigest(t.app, owner, {
      sources: [rssOk(), { type: 'HACKER_NEWS' }, { type: 'DATE' }],
    });
    for (const buildNumber of [1, 2, 3]) {
      const [build] = await t.database.db
        .insert(digestBuilds)
        .values({
          digestId: digest.digestId,
          buildNumber,
          html: 'x'.repeat(MB - 100),
          text: 'y'.repeat(100),
          createdAt: daysAgo(10 - buildNumber),
        })
        .returning();
      await t.database.db.insert(deliveries).values({
        buildId: build?.buildId ?? '',
        digestId: digest.digestId,
        recipient: owner.email,
        kind: 'owner',
        state: 'sent',
        messageId: `<issue-${buildNumber}-${digest.digestId}@digest.test>`,
      });
    }
    return digest;
  }

  const issuesOf = async (digestId: string) =>
    (
      await t.database.db
        .select({ buildNumber: digestBuilds.buildNumber })
        .from(digestBuilds)
        .where(eq(digestBuilds.digestId, digestId))
    )
      .map((row) => row.buildNumber)
      .sort();

  async function buildWithQuota(digestId: string, storageQuotaBytes: number) {
    const run = await queuedRun(digestId);
    const outcome = await buildIssue({ ...deps(), storageQuotaBytes }, run.runId);
    expect(outcome).toMatchObject({ status: 'built', build: { buildNumber: 4 } });
  }

  it('deletes nothing while the account stays within its quota', async () => {
    const owner = await signUp(t);
    const digest = await digestWithOldIssues(owner);
    await buildWithQuota(digest.digestId, 3.5 * MB);
    expect(await issuesOf(digest.digestId)).toEqual([1, 2, 3, 4]);
  });

  it('past the quota deletes the oldest issues (with their deliveries) until it fits, never another account’s', async () => {
    const other = await signUp(t);
    const othersDigest = await digestWithOldIssues(other);
    const owner = await signUp(t);
    const digest = await digestWithOldIssues(owner);
    await buildWithQuota(digest.digestId, 2.5 * MB);
    expect(await issuesOf(digest.digestId)).toEqual([2, 3, 4]);
    const mailed = await deliveriesOf(digest.digestId);
    expect(mailed.map((row) => row.messageId).filter((id) => id.startsWith('<issue-1-'))).toEqual([]);
    expect(mailed).toHaveLength(3);
    expect(await issuesOf(othersDigest.digestId)).toEqual([1, 2, 3]);
  });

  it('keeps the issue just built even when it alone is over the quota, and issues whose mail is still going out', async () => {
    const owner = await signUp(t);
    const digest = await digestWithOldIssues(owner);
    await t.database.db
      .update(deliveries)
      .set({ state: 'pending' })
      .where(eq(deliveries.messageId, `<issue-2-${digest.digestId}@digest.test>`));
    await buildWithQuota(digest.digestId, 1);
    expect(await issuesOf(digest.digestId)).toEqual([2, 4]);
  });
});
