import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digestSubscribers, issueRuns, mailSuppressions } from '#server/db/schema';
import { releaseHeldMailJob } from '#server/modules/deliveries/deliveries.jobs';
import { STALE_HELD_REASON } from '#server/modules/deliveries/deliveries.usecases';
import { INVITATIONS_PER_ADDRESS_PER_DAY } from '#server/modules/deliveries/mail-limits';
import { callerOf, createDigest, THREE_SOURCES } from '#server/modules/digests/test-support';
import { buildIssue, DAILY_CAP_REASON } from '#server/modules/issues/build-issue.usecases';
import { signUp, signUpUnverified, type TestUser } from '#server/modules/users/test-support';
import {
  closeSmtpServers,
  type Received,
  startSmtpServer,
  type TestSmtpServer,
} from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { NOTICE_INTERVAL_MS } from './subscribers.usecases';
import { addFriends, subscriberRows as rowsOf, subscriberRow } from './test-support';

// The worker role sends invitations and issues to a real SMTP server. An address starting with "bounce"
// is refused for good (550), as a mailbox that does not exist.
const RECIPIENTS_PER_DAY = 6;
let t: TestApi;
let smtp: TestSmtpServer;
let fakes: FakeProviders;
beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer({
    rejectRcpt: (address) => (address.startsWith('bounce') ? 550 : undefined),
  });
  t = await startTestApi({
    roles: ['worker'],
    fakes,
    appUrl: 'http://app.test',
    smtp,
    recipientsPerDay: RECIPIENTS_PER_DAY,
  });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);
const subscriberRows = (digestId: string) => rowsOf(t.database.db, digestId);
const rowOf = (digestId: string, email: string) => subscriberRow(t.database.db, digestId, email);
const unique = (name: string) => `${name}.${Math.random().toString(36).slice(2, 10)}@example.com`;
/** What an address was mailed because of digests: the account's own verification links are not counted. */
const mailsTo = (address: string) =>
  smtp.received.filter(
    (mail) =>
      mail.rcptTo.includes(address) && mail.parsed.subject !== 'Confirm your e-mail address for Digest',
  );

async function waitForMails(address: string, count: number) {
  await expect.poll(() => mailsTo(address).length, { timeout: 15_000, interval: 100 }).toBe(count);
  return mailsTo(address);
}

/** Invitation jobs ever queued for this friend (a "no mail" check that does not wait for the worker). */
async function invitationJobsFor(subscriberId: string) {
  const result = await t.database.db.execute(
    sql`select count(*)::int as n from pgboss.job
        where name = 'subscribers.send-notices' and data->'subscriberIds' ? ${subscriberId}`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/**
 * Waits until the notice jobs of these friends have all finished: a job updates its friends' rows as it
 * mails them (woken at once when queued), so a "nothing changes" check compares the rows after that.
 */
async function noticesSettled(subscriberIds: string[]) {
  const jobs = async () => {
    const result = await t.database.db.execute(
      sql`select count(*)::int as queued, count(*) filter (where state <> 'completed')::int as unfinished
          from pgboss.job
          where name = 'subscribers.send-notices'
            and data->'subscriberIds' ?| ${`{${subscriberIds.join(',')}}`}::text[]`,
    );
    return (result as unknown as { rows: { queued: number; unfinished: number }[] }).rows[0];
  };
  await expect.poll(jobs, { timeout: 15_000, interval: 100 }).toMatchObject({ unfinished: 0 });
  expect((await jobs())?.queued).toBeGreaterThan(0);
}

const header = (mail: Received, name: string) =>
  mail.parsed.headerLines
    .find((line) => line.key === name)
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ');

/** Sources the fake providers answer, so issues have news. */
// "Only new items" off: these tests build several issues of one digest from feeds that do not change.
const liveSources = () => [
  { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml`, sourceName: 'Field Notes', onlyNew: false },
  { type: 'HACKER_NEWS', onlyNew: false },
  { type: 'DATE' },
];

/** Jobs of this name and user that finished. */
async function finishedJobs(name: string, userId: string) {
  const result = await t.database.db.execute(
    sql`select count(*)::int as n from pgboss.job
        where name = ${name} and data->>'userId' = ${userId} and state = 'completed'`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

async function verifiedOwner(fullName?: string) {
  const owner = await signUp(t);
  // Verifying releases what waited; let that finish so it cannot race the invitations a test counts.
  await expect.poll(() => finishedJobs(releaseHeldMailJob.name, owner.userId), { timeout: 15_000 }).toBe(1);
  if (fullName) await api(owner, 'PATCH', '/api/users/me', { fullName });
  return owner;
}

const statusesOf = async (owner: TestUser, digestId: string) =>
  Object.fromEntries(
    (await api(owner, 'GET', `/api/digests/${digestId}/subscribers`))
      .json()
      .subscribers.map((entry: { email: string; status: string }) => [entry.email, entry.status]),
  );

const answer = (token: string, what: 'accept' | 'decline' | 'never' | 'unsubscribe') =>
  api(null, 'POST', `/api/subscriptions/${token}/${what}`);

/** Builds an issue of the digest now, as the scheduler would. */
async function buildNow(digestId: string) {
  const [run] = await t.database.db.insert(issueRuns).values({ digestId, slot: new Date() }).returning();
  if (!run) throw new Error('no run');
  return buildIssue(t.modules.issuesDeps, run.runId);
}

const deliveriesOf = (digestId: string) =>
  t.database.db.select().from(deliveries).where(eq(deliveries.digestId, digestId));

describe('friends: double opt-in', () => {
  it('adding a friend sends one invitation (fixed subject, a page to accept or decline, never-invite link, Reply-To the verified owner) and no issue until they accept', async () => {
    const owner = await verifiedOwner('Ada Lovelace');
    const digest = await createDigest(t.app, owner, { name: 'Engines weekly', sources: liveSources() });
    const friend = unique('friend');
    const put = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(put.json()).toMatchObject({
      message: 'Your Digest is shared with 1 friend.',
      subscribers: [{ email: friend, status: 'invited' }],
    });
    const [mail] = await waitForMails(friend, 1);
    if (!mail) throw new Error('no mail');
    const { token } = await rowOf(digest.digestId, friend);
    expect(mail.parsed.subject).toBe('Digest invitation: “Ada Lovelace” invites you to “Engines weekly”');
    expect(mail.parsed.text).toContain(`http://app.test/invitations/${token}`);
    expect(mail.parsed.text).toContain(`http://app.test/invitations/${token}?answer=decline`);
    expect(mail.parsed.html).toContain(`http://app.test/invitations/${token}?answer=never`);
    expect(mail.parsed.text).toContain('Nothing is sent to you unless you accept.');
    expect(header(mail, 'list-unsubscribe')).toBe(`<http://app.test/api/subscriptions/${token}/unsubscribe>`);
    expect(mail.parsed.replyTo?.text).toBe(owner.email);

    // Setting the same list again sends nothing more.
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [friend] });
    expect(await invitationJobsFor((await rowOf(digest.digestId, friend)).subscriberId)).toBe(1);

    // An issue before they answer goes to the owner only.
    await buildNow(digest.digestId);
    expect((await deliveriesOf(digest.digestId)).map((row) => row.kind)).toEqual(['owner']);

    // Reading the link (a mail scanner) changes nothing; the page's POST accepts.
    const read = await api(null, 'GET', `/api/subscriptions/${token}`);
    expect(read.json()).toEqual({
      subscription: {
        digestName: 'Engines weekly',
        ownerName: 'Ada Lovelace',
        scheduleType: 'daily',
        email: `f***@example.com`,
        status: 'invited',
      },
    });
    expect((await rowOf(digest.digestId, friend)).status).toBe('invited');
    const accepted = await answer(token, 'accept');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().subscription.status).toBe('subscribed');
    expect(await statusesOf(owner, digest.digestId)).toEqual({ [friend]: 'subscribed' });

    await buildNow(digest.digestId);
    const issues = await waitForMails(friend, 2);
    expect(issues[1]?.parsed.subject).toBe('Digest “Engines weekly”, issue 2');
  });

  it('sends the invitation to friends given when the digest is created or patched', async () => {
    const owner = await verifiedOwner();
    const [atCreate, atPatch] = [unique('create'), unique('patch')];
    const digest = await createDigest(t.app, owner, { subscribers: [atCreate] });
    const patched = await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, {
      subscribers: [atCreate, atPatch],
    });
    expect(patched.json().digest.subscribers).toEqual([atCreate, atPatch]);
    await waitForMails(atCreate, 1);
    await waitForMails(atPatch, 1);
  });

  it('restores a removed address as it was within the week of its invitation (no second mail)', async () => {
    const owner = await verifiedOwner();
    const friend = unique('back');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    await waitForMails(friend, 1);
    await answer((await rowOf(digest.digestId, friend)).token, 'accept');
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [] });
    const back = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(back.json().subscribers).toMatchObject([{ email: friend, status: 'subscribed' }]);
    const row = await rowOf(digest.digestId, friend);
    expect(row.noticePending).toBe(false);
    expect(await invitationJobsFor(row.subscriberId)).toBe(1);
  });

  it('a removed friend cannot accept (409) and is not mailed', async () => {
    const owner = await verifiedOwner();
    const friend = unique('removed');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    const { token } = await rowOf(digest.digestId, friend);
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [] });
    const refused = await answer(token, 'accept');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('INVITATION_WITHDRAWN');
    expect((await rowOf(digest.digestId, friend)).status).toBe('invited');
  });
});

describe('suppression list', () => {
  it('declining stops invitations from that owner (re-adding lists them declined, no mail); another owner may still invite', async () => {
    const owner = await verifiedOwner();
    const friend = unique('decliner');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    await waitForMails(friend, 1);
    const declined = await answer((await rowOf(digest.digestId, friend)).token, 'decline');
    expect(declined.json().subscription.status).toBe('declined');

    const second = await createDigest(t.app, owner, { subscribers: [friend] });
    expect(await statusesOf(owner, second.digestId)).toEqual({ [friend]: 'declined' });
    expect(await invitationJobsFor((await rowOf(second.digestId, friend)).subscriberId)).toBe(0);
    // Deleting the digest and creating it again changes nothing: the list is the account's, not the digest's.
    await api(owner, 'DELETE', `/api/digests/${second.digestId}`);
    const third = await createDigest(t.app, owner, { subscribers: [friend] });
    expect(await statusesOf(owner, third.digestId)).toEqual({ [friend]: 'declined' });

    const other = await verifiedOwner();
    const theirs = await createDigest(t.app, other, { subscribers: [friend] });
    expect(await statusesOf(other, theirs.digestId)).toEqual({ [friend]: 'invited' });
    await waitForMails(friend, 2);
  });

  it('unsubscribing stops that owner’s invitations: re-adding lists them unsubscribed and mails nothing', async () => {
    const owner = await verifiedOwner();
    const friend = unique('leaver');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    const { token, subscriberId } = await rowOf(digest.digestId, friend);
    await noticesSettled([subscriberId]);
    await answer(token, 'accept');
    await answer(token, 'unsubscribe');
    const before = await subscriberRows(digest.digestId);
    const again = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().subscribers).toMatchObject([{ email: friend, status: 'unsubscribed' }]);
    expect(await subscriberRows(digest.digestId)).toEqual(before);
    // A week later the owner still cannot mail them again.
    await t.database.db
      .update(digestSubscribers)
      .set({ notifiedAt: new Date(Date.now() - NOTICE_INTERVAL_MS - 1000), removedAt: new Date() })
      .where(eq(digestSubscribers.digestId, digest.digestId));
    const later = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(later.json().subscribers).toMatchObject([{ email: friend, status: 'unsubscribed' }]);
    expect(await invitationJobsFor((await rowOf(digest.digestId, friend)).subscriberId)).toBe(1);
  });

  it('"never invite me again" stops every owner, who sees only "declined"', async () => {
    const owner = await verifiedOwner();
    const friend = unique('never');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    await waitForMails(friend, 1);
    const never = await answer((await rowOf(digest.digestId, friend)).token, 'never');
    expect(never.json().message).toBe('Nobody can invite this address to a Digest again.');
    const other = await verifiedOwner();
    const theirs = await createDigest(t.app, other, { subscribers: [friend] });
    expect(await statusesOf(other, theirs.digestId)).toEqual({ [friend]: 'declined' });
    expect(await invitationJobsFor((await rowOf(theirs.digestId, friend)).subscriberId)).toBe(0);
  });

  it('a permanent SMTP refusal (5xx) marks the address bouncing for every owner and stops invitations', async () => {
    const owner = await verifiedOwner();
    const friend = unique('bounce');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    await expect
      .poll(async () => (await rowOf(digest.digestId, friend)).status, { timeout: 15_000, interval: 100 })
      .toBe('bouncing');
    expect(await statusesOf(owner, digest.digestId)).toEqual({ [friend]: 'bouncing' });
    const other = await verifiedOwner();
    const theirs = await createDigest(t.app, other, { subscribers: [friend] });
    expect(await statusesOf(other, theirs.digestId)).toEqual({ [friend]: 'bouncing' });
    expect(await invitationJobsFor((await rowOf(theirs.digestId, friend)).subscriberId)).toBe(0);
    expect(
      await t.database.db
        .select({ reason: mailSuppressions.reason })
        .from(mailSuppressions)
        .where(and(eq(mailSuppressions.email, friend))),
    ).toEqual([{ reason: 'bounced' }]);
  });

  it('answers 404 for an unknown token, and a GET never answers', async () => {
    for (const what of ['accept', 'decline', 'never'] as const) {
      const response = await answer('unknown-token', what);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('SUBSCRIPTION_NOT_FOUND');
      expect((await api(null, 'GET', `/api/subscriptions/unknown/${what}`)).statusCode).toBe(404);
    }
  });
});

describe('mail limits', () => {
  it(`an address gets at most ${INVITATIONS_PER_ADDRESS_PER_DAY} invitations in 24 hours from all owners together (create → delete → create included)`, async () => {
    const friend = unique('popular');
    const owner = await verifiedOwner();
    for (let i = 0; i < INVITATIONS_PER_ADDRESS_PER_DAY; i++) {
      const digest = await createDigest(t.app, owner, { subscribers: [friend] });
      await api(owner, 'DELETE', `/api/digests/${digest.digestId}`);
    }
    const other = await verifiedOwner();
    const digest = await createDigest(t.app, other);
    const before = await subscriberRows(digest.digestId);
    const refused = await api(other, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [unique('fine'), friend],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('INVITATION_LIMIT');
    expect(refused.json().message).toMatch(
      new RegExp(
        `^${friend.replace(/\./g, '\\.')} has received too many invitations today\\. Add them again after \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`,
      ),
    );
    expect(await subscriberRows(digest.digestId)).toEqual(before);
    const create = await api(other, 'POST', '/api/digests', {
      sources: THREE_SOURCES,
      subscribers: [friend],
    });
    expect(create.statusCode).toBe(422);
    expect((await api(other, 'GET', '/api/digests')).json().digests).toHaveLength(1);
  });

  it(`an account mails at most ${RECIPIENTS_PER_DAY} different people a day: past it the change is refused with what to do, and nothing changes`, async () => {
    const owner = await verifiedOwner();
    const first = Array.from({ length: RECIPIENTS_PER_DAY - 1 }, (_, i) => unique(`cap${i}`));
    const digest = await createDigest(t.app, owner, { subscribers: first });
    await noticesSettled((await subscriberRows(digest.digestId)).map((row) => row.subscriberId));
    const before = await subscriberRows(digest.digestId);
    const refused = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [...first, unique('one'), unique('two')],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'DAILY_RECIPIENT_LIMIT',
      message: `Your account can mail at most ${RECIPIENTS_PER_DAY} different people a day (invitations and issues). Add the other friends tomorrow, or remove some of the new ones.`,
    });
    expect(await subscriberRows(digest.digestId)).toEqual(before);
    // Removing friends does not make room: they were mailed today.
    const swapped = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [unique('a'), unique('b')],
    });
    expect(swapped.statusCode).toBe(422);
    // One more fits; another account is not affected.
    const last = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [...first, unique('last')],
    });
    expect(last.statusCode).toBe(200);
    const other = await verifiedOwner();
    expect((await createDigest(t.app, other, { subscribers: [unique('x')] })).digestId).toBeDefined();
  });
});

describe('the daily recipient cap at build time', () => {
  it(`an issue goes to at most ${RECIPIENTS_PER_DAY} different friends a day; the others get a cancelled delivery with the reason`, async () => {
    const owner = await verifiedOwner();
    const digest = await createDigest(t.app, owner, { sources: liveSources() });
    const friends = Array.from({ length: RECIPIENTS_PER_DAY + 2 }, (_, i) => unique(`many${i}`));
    await addFriends(t.database.db, digest.digestId, friends);
    await buildNow(digest.digestId);
    const rows = await deliveriesOf(digest.digestId);
    const friendRows = rows.filter((row) => row.kind === 'subscriber');
    expect(friendRows.filter((row) => row.state !== 'cancelled')).toHaveLength(RECIPIENTS_PER_DAY);
    expect(friendRows.filter((row) => row.state === 'cancelled').map((row) => row.lastError)).toEqual([
      DAILY_CAP_REASON,
      DAILY_CAP_REASON,
    ]);
    expect(rows.find((row) => row.kind === 'owner')?.state).not.toBe('cancelled');
  });
});

describe('nothing is mailed from an unverified account', () => {
  it('holds the invitations and issues; releaseHeldMailJob sends the invitations and the newest issue, cancelling older ones', async () => {
    const owner = await signUpUnverified(t);
    const friend = unique('waiting');
    const digest = await createDigest(t.app, owner, { subscribers: [friend], sources: liveSources() });
    const { token } = await rowOf(digest.digestId, friend);
    // The builder works and issues are stored, but nothing leaves.
    const rebuilt = await api(owner, 'POST', `/api/digests/rebuild/${digest.digestId}`);
    expect(rebuilt.json().message).toBe(
      'Issue 1 is built. It will be mailed to you once you verify your e-mail address.',
    );
    await buildNow(digest.digestId);
    await t.jobs.send(releaseHeldMailJob, { userId: owner.userId }); // still unverified: nothing happens
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsTo(friend)).toEqual([]);
    expect(mailsTo(owner.email)).toEqual([]);
    expect((await deliveriesOf(digest.digestId)).map((row) => row.state)).toEqual(['held', 'held']);
    expect((await rowOf(digest.digestId, friend)).noticePending).toBe(true);

    // The mailed link verifies the address, and that releases what waited. It also ends the session
    // started before the mailbox was proven, so the owner goes on with the one the link started.
    const verified = await t.followVerificationLink(owner.email);
    expect(verified.statusCode).toBe(200);
    owner.headers.authorization = `Bearer ${verified.json().token.accessToken}`;
    await waitForMails(friend, 1);
    const [ownerMail] = await waitForMails(owner.email, 1);
    expect(ownerMail?.parsed.subject).toMatch(/, issue 2$/);
    // The sink has the message once its final dot is answered; the delivery is marked sent a moment after.
    const settled = async () =>
      (await deliveriesOf(digest.digestId)).map((row) => [row.state, row.lastError]).sort();
    await expect.poll(settled, { timeout: 15_000, interval: 100 }).toEqual([
      ['cancelled', STALE_HELD_REASON],
      ['sent', null],
    ]);
    await answer(token, 'accept');
    expect(await statusesOf(owner, digest.digestId)).toEqual({ [friend]: 'subscribed' });
  });
});

describe('subjects are fixed words around the quoted, cleaned names', () => {
  it('a name cannot start the subject, add header lines, or run on', async () => {
    const owner = await verifiedOwner('URGENT verify your bank account');
    const name = `URGENT: verify your bank account\u202e\r\nBcc: victim@example.com ${'x'.repeat(80)}`;
    const digest = await createDigest(t.app, owner, { name: name.slice(0, 100) });
    const friend = unique('subject');
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [friend] });
    const [mail] = await waitForMails(friend, 1);
    const subject = mail?.parsed.subject ?? '';
    expect(subject).toMatch(
      /^Digest invitation: “URGENT verify your bank account” invites you to “URGENT: verify your bank account Bcc: victim@example\.com x+…”$/,
    );
    expect(subject).not.toMatch(/[\r\n\u202e]/);
    expect(mail?.rcptTo).toEqual([friend]);
    const headerLines = (mail?.raw ?? '').split(/\r?\n\r?\n/)[0];
    expect(headerLines).not.toMatch(/^Bcc:/im);
  });
});
