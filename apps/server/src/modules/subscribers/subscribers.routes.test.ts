import { MAX_SUBSCRIBERS, subscriberListResponseSchema } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestSubscribers } from '#server/db/schema';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { signUp } from '#server/modules/users/test-support';
import { systemClock } from '#server/platform/clock';
import type { Mailer, OutgoingMail } from '#server/platform/mailer';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { sendSubscriberNotices } from './subscribers.jobs';
import { SUBSCRIBERS_RATE_LIMITS } from './subscribers.routes';
import { subscriberRows as rowsOf, subscriberRow } from './test-support';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ appUrl: 'http://app.test' });
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);

const subscriberRows = (digestId: string) => rowsOf(t.database.db, digestId);
const rowOf = (digestId: string, email: string) => subscriberRow(t.database.db, digestId, email);

const unique = (name: string) => `${name}.${Math.random().toString(36).slice(2, 10)}@example.com`;

describe('PUT /api/digests/:id/subscribers sets the list', () => {
  it('normalises and de-duplicates the e-mails and answers { message, subscribers }', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const [a, b] = [unique('ann'), unique('bob')];
    const response = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
      subscribers: [` ${a.toUpperCase()} `, a, b],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe('Your Digest is shared with 2 friends.');
    expect(body.subscribers.map((entry: { email: string }) => entry.email).sort()).toEqual([a, b].sort());
    expect(body.subscribers.every((entry: { status: string }) => entry.status === 'invited')).toBe(true);
    expect((await subscriberRows(digest.digestId)).map((row) => row.email).sort()).toEqual([a, b].sort());
    const one = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [a] });
    expect(one.json().message).toBe('Your Digest is shared with 1 friend.');
    const none = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [] });
    expect(none.json()).toEqual({ message: 'Your Digest is not shared with anyone.', subscribers: [] });
  });

  it('removes the addresses left out (no mail), hiding them from the list', async () => {
    const owner = await signUp(t);
    const [keep, drop] = [unique('keep'), unique('drop')];
    const digest = await createDigest(t.app, owner, { subscribers: [keep, drop] });
    await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, { subscribers: [keep] });
    const list = (await api(owner, 'GET', `/api/digests/${digest.digestId}/subscribers`)).json().subscribers;
    expect(list.map((entry: { email: string }) => entry.email)).toEqual([keep]);
    expect((await api(owner, 'GET', `/api/digests/${digest.digestId}`)).json().digest.subscribers).toEqual([
      keep,
    ]);
  });

  it("refuses a bad address with '{email} should be a valid email!' and changes nothing", async () => {
    const owner = await signUp(t);
    const friend = unique('ok');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    const before = await subscriberRows(digest.digestId);
    for (const [subscribers, message] of [
      [['new@example.com', 'bob@'], 'bob@ should be a valid email!'],
      [['with space@example.com'], 'with space@example.com should be a valid email!'],
      [Array.from({ length: MAX_SUBSCRIBERS + 1 }, (_, i) => `f${i}@example.com`), 'at most 100 friends'],
    ] as const) {
      const response = await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {
        subscribers,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect((await api(owner, 'PUT', `/api/digests/${digest.digestId}/subscribers`, {})).statusCode).toBe(400);
    expect(await subscriberRows(digest.digestId)).toEqual(before);
  });
});

describe('subscriber changes are limited per account', () => {
  it('answers 429 with Retry-After after 60 list changes in an hour, per account', async () => {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner);
    const url = `/api/digests/${digest.digestId}/subscribers`;
    for (let i = 0; i < SUBSCRIBERS_RATE_LIMITS.setPerUser.max; i++) {
      expect((await api(owner, 'PUT', url, { subscribers: ['same@example.com'] })).statusCode).toBe(200);
    }
    const limited = await api(owner, 'PUT', url, { subscribers: ['same@example.com'] });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another account is not affected.
    const other = await signUp(t);
    const theirs = await createDigest(t.app, other);
    expect(
      (await api(other, 'PUT', `/api/digests/${theirs.digestId}/subscribers`, { subscribers: [] }))
        .statusCode,
    ).toBe(200);
  });
});

describe('DELETE /api/digests/:id/subscribers/:email', () => {
  it('removes one subscriber by e-mail (any case) and answers the list', async () => {
    const owner = await signUp(t);
    const [a, b] = [unique('a'), unique('b')];
    const digest = await createDigest(t.app, owner, { subscribers: [a, b] });
    const response = await api(
      owner,
      'DELETE',
      `/api/digests/${digest.digestId}/subscribers/${encodeURIComponent(a.toUpperCase())}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(`${a} no longer receives this Digest.`);
    expect(response.json().subscribers.map((entry: { email: string }) => entry.email)).toEqual([b]);
    const again = await api(
      owner,
      'DELETE',
      `/api/digests/${digest.digestId}/subscribers/${encodeURIComponent(a)}`,
    );
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('SUBSCRIBER_NOT_FOUND');
  });
});

describe('another user’s subscriber list answers 404 and changes nothing', () => {
  it('for GET, PUT and DELETE, and mails nobody', async () => {
    const owner = await signUp(t);
    const friend = unique('private');
    const digest = await createDigest(t.app, owner, { subscribers: [friend] });
    const before = await subscriberRows(digest.digestId);
    const other = await signUp(t);
    const victim = unique('victim');
    const base = `/api/digests/${digest.digestId}/subscribers`;
    for (const response of [
      await api(other, 'GET', base),
      await api(other, 'PUT', base, { subscribers: [victim] }),
      await api(other, 'DELETE', `${base}/${encodeURIComponent(friend)}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('DIGEST_NOT_FOUND');
    }
    expect(await subscriberRows(digest.digestId)).toEqual(before);
    for (const url of [
      '/api/digests/not-a-uuid/subscribers',
      `/api/digests/${crypto.randomUUID()}/subscribers`,
    ]) {
      expect((await api(owner, 'GET', url)).statusCode).toBe(404);
    }
    const victimRows = await t.database.db
      .select()
      .from(digestSubscribers)
      .where(eq(digestSubscribers.email, victim));
    expect(victimRows).toEqual([]);
  });

  it('answers 401 without a session', async () => {
    expect((await api(null, 'GET', `/api/digests/${crypto.randomUUID()}/subscribers`)).statusCode).toBe(401);
  });
});

describe('unsubscribing', () => {
  async function subscribed() {
    const owner = await signUp(t);
    const friend = unique('reader');
    const digest = await createDigest(t.app, owner, { name: 'Reader digest', subscribers: [friend] });
    const { token } = await rowOf(digest.digestId, friend);
    expect((await api(null, 'POST', `/api/subscriptions/${token}/accept`)).statusCode).toBe(200);
    return { owner, friend, digest, token };
  }

  it('GET /api/subscriptions/:token tells what the link stands for and never unsubscribes', async () => {
    const { owner, friend, digest, token } = await subscribed();
    for (let i = 0; i < 2; i++) {
      const response = await api(null, 'GET', `/api/subscriptions/${token}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        subscription: {
          digestName: 'Reader digest',
          ownerName: `${owner.email[0]}***@example.com`,
          scheduleType: 'daily',
          email: `r***@example.com`,
          status: 'subscribed',
        },
      });
    }
    expect((await rowOf(digest.digestId, friend)).unsubscribedAt).toBeNull();
  });

  it('unsubscribes with the RFC 8058 one-click POST (form body), once', async () => {
    const { owner, friend, digest, token } = await subscribed();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${token}/unsubscribe`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'You will no longer receive "Reader digest".',
      subscription: { status: 'unsubscribed' },
    });
    const first = (await rowOf(digest.digestId, friend)).unsubscribedAt;
    expect(first).toBeInstanceOf(Date);

    // Idempotent: a second click (another body shape) keeps the first time.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${token}/unsubscribe`,
      payload: {},
    });
    expect(again.statusCode).toBe(200);
    expect((await rowOf(digest.digestId, friend)).unsubscribedAt).toEqual(first);

    // The owner sees who left and when; the digest no longer sends to them.
    const list = subscriberListResponseSchema.parse(
      (await api(owner, 'GET', `/api/digests/${digest.digestId}/subscribers`)).json(),
    );
    expect(list.subscribers).toEqual([
      expect.objectContaining({
        email: friend,
        status: 'unsubscribed',
        unsubscribedAt: first?.toISOString(),
      }),
    ]);
    expect((await api(owner, 'GET', `/api/digests/${digest.digestId}`)).json().digest.subscribers).toEqual(
      [],
    );
    expect((await api(null, 'GET', `/api/subscriptions/${token}`)).json().subscription.status).toBe(
      'unsubscribed',
    );
  });

  it('unsubscribes from the confirmation page’s JSON call, and with an empty or multipart body', async () => {
    for (const request of [
      { payload: { confirm: true } },
      {},
      {
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload:
          '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      },
    ]) {
      const { friend, digest, token } = await subscribed();
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/subscriptions/${token}/unsubscribe`,
        ...request,
      });
      expect(response.statusCode).toBe(200);
      expect((await rowOf(digest.digestId, friend)).unsubscribedAt).toBeInstanceOf(Date);
    }
  });

  it('answers 404 for an unknown token', async () => {
    for (const response of [
      await api(null, 'GET', '/api/subscriptions/unknown-token'),
      await api(null, 'POST', '/api/subscriptions/unknown-token/unsubscribe'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('SUBSCRIPTION_NOT_FOUND');
    }
  });
});

describe('the invitation job', () => {
  function recordingMailer(failFor: string[] = []) {
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = {
      transport: 'outbox',
      send: async (mail) => {
        if (failFor.includes(String(mail.to)))
          throw Object.assign(new Error('421 try later'), { responseCode: 421 });
        sent.push(mail);
        return { messageId: '<x@test>' };
      },
      waitForConnection: async () => () => {},
      close: async () => {},
    };
    return { sent, mailer };
  }
  const noticesWith = (mailer: Mailer) => (payload: { subscriberIds: string[] }) =>
    sendSubscriberNotices(
      {
        db: t.database.db,
        clock: systemClock,
        mailer,
        logger: pino({ level: 'silent' }),
        appUrl: 'http://app.test',
        legal: { termsUrl: 'http://app.test/terms', privacyUrl: 'http://app.test/privacy' },
      },
      payload,
    );

  /** A digest whose invitations are pending but not yet worked (the rows are made pending directly). */
  async function pendingNotices(emails: string[]) {
    const owner = await signUp(t);
    const digest = await createDigest(t.app, owner, { subscribers: emails });
    await t.database.db
      .update(digestSubscribers)
      .set({ noticePending: true })
      .where(eq(digestSubscribers.digestId, digest.digestId));
    return Promise.all(emails.map((email) => rowOf(digest.digestId, email)));
  }

  it('sends nothing to an address that unsubscribed or was removed before it ran', async () => {
    const [left, removed] = await pendingNotices([unique('left'), unique('removed')]);
    if (!left || !removed) throw new Error('rows');
    await api(null, 'POST', `/api/subscriptions/${left.token}/unsubscribe`);
    await t.database.db
      .update(digestSubscribers)
      .set({ removedAt: new Date() })
      .where(eq(digestSubscribers.subscriberId, removed.subscriberId));
    const { sent, mailer } = recordingMailer();
    await noticesWith(mailer)({ subscriberIds: [left.subscriberId, removed.subscriberId] });
    expect(sent).toEqual([]);
  });

  it('on a failed send, fails the job and on retry mails only the ones not sent yet', async () => {
    const [ok, flaky] = [unique('ok'), unique('flaky')];
    const rows = await pendingNotices([ok, flaky]);
    const ids = rows.map((row) => row.subscriberId);
    const first = recordingMailer([flaky]);
    await expect(noticesWith(first.mailer)({ subscriberIds: ids })).rejects.toThrow('421');
    expect(first.sent.map((mail) => mail.to)).toEqual([ok]);
    const retry = recordingMailer();
    await noticesWith(retry.mailer)({ subscriberIds: ids });
    expect(retry.sent.map((mail) => mail.to)).toEqual([flaky]);
    const again = recordingMailer();
    await noticesWith(again.mailer)({ subscriberIds: ids });
    expect(again.sent).toEqual([]);
  });
});
