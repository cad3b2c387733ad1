import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestSubscribers } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { signUp } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { NOTICE_INTERVAL_MS } from './subscribers.usecases';
import { subscriberRows as rowsOf, subscriberRow } from './test-support';

// The worker role sends the notices into the outbox. Only tests that wait for their mails live here,
// so no backlog of other tests' notices delays them.
let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({
    roles: ['worker'],
    appUrl: 'http://app.test',
    siteEnv: { PRIVACY_URL: 'https://legal.example/privacy' },
  });
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);

const subscriberRows = (digestId: string) => rowsOf(t.database.db, digestId);
const rowOf = (digestId: string, email: string) => subscriberRow(t.database.db, digestId, email);

async function mailsTo(address: string): Promise<ParsedMail[]> {
  const found: ParsedMail[] = [];
  for (const file of await readdir(t.outboxDir).catch(() => [] as string[])) {
    if (!file.endsWith('.eml')) continue;
    const mail = await simpleParser(await readFile(path.join(t.outboxDir, file)));
    const to = Array.isArray(mail.to) ? mail.to.map((entry) => entry.text).join(',') : mail.to?.text;
    if (to === address) found.push(mail);
  }
  return found;
}

async function waitForMails(address: string, count: number) {
  await expect
    .poll(async () => (await mailsTo(address)).length, { timeout: 15_000, interval: 100 })
    .toBe(count);
  return mailsTo(address);
}

/** Notice jobs ever queued for this subscriber (a "no mail" check that does not wait for the worker). */
async function noticeJobsFor(subscriberId: string) {
  const result = await t.database.db.execute(
    sql`select count(*)::int as n from pgboss.job
        where name = 'subscribers.send-notices' and data->'subscriberIds' ? ${subscriberId}`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

const header = (mail: ParsedMail, name: string) =>
  mail.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, '');

const unique = (name: string) => `${name}.${Math.random().toString(36).slice(2, 10)}@example.com`;

describe('the "shared with you" notice', () => {
  it('sends each new subscriber one notice: who shared it, the public page, an unsubscribe link and List-Unsubscribe', async () => {
    const owner = await signUp(t);
    await api(owner, 'PATCH', '/api/users/me', { fullName: 'Ada Lovelace' });
    const digest = await createDigest(t.app, owner, { name: 'Engines weekly' });
    const friend = unique('friend');
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [friend] });
    const [mail] = await waitForMails(friend, 1);
    if (!mail) throw new Error('no mail');
    const { token } = await rowOf(digest.digestId, friend);

    expect(mail.subject).toBe('Ada Lovelace shared the Digest "Engines weekly" with you');
    expect(mail.text).toContain('Ada Lovelace');
    expect(mail.html).toContain(`http://app.test/digests/share/${digest.digestId}`);
    expect(mail.text).toContain(`http://app.test/digests/share/${digest.digestId}`);
    expect(mail.html).toContain(`http://app.test/unsubscribe/${token}`);
    expect(mail.text).toContain(`http://app.test/unsubscribe/${token}`);
    expect(header(mail, 'list-unsubscribe')).toBe(`<http://app.test/api/subscriptions/${token}/unsubscribe>`);
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.replyTo?.text).toBe(owner.email);
    // The footer links to the legal texts: the app's page, or the operator's page elsewhere.
    expect(mail.html).toMatch(/<a href="http:\/\/app\.test\/terms"[^>]*>Terms of Service<\/a>/);
    expect(mail.html).toMatch(/<a href="https:\/\/legal\.example\/privacy"[^>]*>Privacy Policy<\/a>/);

    // Setting the same list again sends nothing more.
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [friend] });
    expect(await noticeJobsFor((await rowOf(digest.digestId, friend)).subscriberId)).toBe(1);
  });

  it('sends the notice to subscribers given when the digest is created or patched', async () => {
    const owner = await signUp(t);
    const [atCreate, atPatch] = [unique('create'), unique('patch')];
    const digest = await createDigest(t.app, owner, { subscribers: [atCreate] });
    const patched = await api(owner, 'PATCH', `/api/digests/${digest.digestId}`, {
      subscribers: [atCreate, atPatch],
    });
    expect(patched.json().digest.subscribers).toEqual([atCreate, atPatch]);
    await waitForMails(atCreate, 1);
    await waitForMails(atPatch, 1);
  });

  it('restores a removed address silently within the week of its notice (no second mail)', async () => {
    const owner = await signUp(t);
    const friend = unique('back');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    await waitForMails(friend, 1);
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [] });
    const back = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(back.json().subscribers).toMatchObject([{ email: friend, status: 'subscribed' }]);
    const row = await rowOf(digest.digestId, friend);
    expect(row.noticePending).toBe(false);
    expect(await noticeJobsFor(row.subscriberId)).toBe(1);
  });

  it('re-adding an address that unsubscribed is refused within a week of its notice, then sends one new notice', async () => {
    const owner = await signUp(t);
    const friend = unique('reader');
    const digest = await createDigest(t.app, owner, { name: 'Reader digest', subscribers: [friend] });
    const { token } = await rowOf(digest.digestId, friend);
    await waitForMails(friend, 1);
    await api(null, 'POST', `/api/subscriptions/${token}/unsubscribe`);
    const before = await subscriberRows(digest.digestId);

    const refused = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('SUBSCRIBER_UNSUBSCRIBED');
    expect(refused.json().message).toContain(
      `${friend} unsubscribed from this Digest; you can invite them again after`,
    );
    expect(await subscriberRows(digest.digestId)).toEqual(before);

    // A week after the last notice the owner may invite them again: one new notice, same unsubscribe link.
    await t.database.db
      .update(digestSubscribers)
      .set({ notifiedAt: new Date(Date.now() - NOTICE_INTERVAL_MS - 1000) })
      .where(eq(digestSubscribers.digestId, digest.digestId));
    const again = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [friend],
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().subscribers).toMatchObject([
      { email: friend, status: 'subscribed', unsubscribedAt: null },
    ]);
    const mails = await waitForMails(friend, 2);
    expect(mails.map((mail) => header(mail, 'list-unsubscribe'))).toEqual([
      `<http://app.test/api/subscriptions/${token}/unsubscribe>`,
      `<http://app.test/api/subscriptions/${token}/unsubscribe>`,
    ]);
  });
});
