import { randomUUID } from 'node:crypto';
import {
  newsletterMailboxSchema,
  newsletterMessageSchema,
  newsletterMessagesPageSchema,
} from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMessages, newsletterSenders } from '#server/db/schema';
import { callerOf } from '#server/modules/digests/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { updateUser } from '#server/modules/users/users.repository';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { receiveTestNewsletter, type TestNewsletter } from './test-support';

const QUOTA_BYTES = 10_000;
let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ mailDomain: 'digest.test', newsletterQuotaBytes: QUOTA_BYTES });
});
afterAll(async () => {
  await t?.close();
});

const api = callerOf(() => t.app);
const receive = (user: TestUser, newsletter: TestNewsletter = {}) =>
  receiveTestNewsletter(t.database.db, user.userId, newsletter);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function messageRow(messageId: string) {
  const [row] = await t.database.db
    .select()
    .from(inboundMessages)
    .where(eq(inboundMessages.messageId, messageId));
  return row;
}

async function senderRow(senderId: string) {
  const [row] = await t.database.db
    .select()
    .from(newsletterSenders)
    .where(eq(newsletterSenders.senderId, senderId));
  return row;
}

async function mailbox(user: TestUser) {
  const response = await api(user, 'GET', '/api/newsletters');
  expect(response.statusCode).toBe(200);
  return newsletterMailboxSchema.parse(response.json());
}

async function messages(user: TestUser, query = '') {
  const response = await api(user, 'GET', `/api/newsletters/messages${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return newsletterMessagesPageSchema.parse(response.json());
}

async function htmlUrlOf(user: TestUser, messageId: string) {
  const response = await api(user, 'GET', `/api/newsletters/messages/${messageId}`);
  expect(response.statusCode).toBe(200);
  const url = newsletterMessageSchema.parse(response.json()).htmlUrl;
  if (!url) throw new Error('no htmlUrl');
  return url;
}

describe('GET /api/newsletters shows the mailbox', () => {
  it('gives the address, usage against the quota, unread count, senders with counts, and pinned messages newest first', async () => {
    const user = await signUp(t);
    await updateUser(t.database.db, user.userId, { username: 'AdaReads', updatedAt: new Date() });
    const weekly = await receive(user, { fromAddress: 'weekly@news.example', receivedAt: minutesAgo(30) });
    await receive(user, { fromAddress: 'weekly@news.example', receivedAt: minutesAgo(20) });
    const older = await receive(user, {
      fromAddress: 'confirm@list.example',
      kind: 'confirmation',
      confirmUrl: 'https://list.example/confirm/1',
      receivedAt: minutesAgo(10),
    });
    const newer = await receive(user, {
      fromAddress: 'forwarding-noreply@google.com',
      kind: 'forwarding_code',
      forwardingCode: '123456789',
      receivedAt: minutesAgo(5),
    });
    const dismissed = await receive(user, { kind: 'reply_to_confirm', receivedAt: minutesAgo(1) });
    await t.database.db
      .update(inboundMessages)
      .set({ resolvedAt: new Date() })
      .where(eq(inboundMessages.messageId, dismissed.messageId));
    await api(user, 'GET', `/api/newsletters/messages/${weekly.messageId}`);

    const box = await mailbox(user);
    expect(box).toMatchObject({ address: 'adareads@digest.test', receiving: true, quotaBytes: QUOTA_BYTES });
    const rows = await t.database.db
      .select()
      .from(inboundMessages)
      .where(eq(inboundMessages.userId, user.userId));
    expect(box.usedBytes).toBe(rows.reduce((sum, row) => sum + row.sizeBytes, 0));
    expect(box.full).toBe(false);
    expect(box.unreadCount).toBe(4);
    const weeklySender = box.senders.find((sender) => sender.senderId === weekly.senderId);
    expect(weeklySender).toMatchObject({
      messageCount: 2,
      storedCount: 2,
      unreadCount: 1,
      state: 'included',
    });
    expect(box.pinned.map((message) => message.messageId)).toEqual([newer.messageId, older.messageId]);
    expect(box.pinned[0]).toMatchObject({ kind: 'forwarding_code', forwardingCode: '123456789' });
  });

  it('says which senders Unsubscribe can act for, and links only the https page of the others', async () => {
    const user = await signUp(t);
    const oneClick = await receive(user, {
      fromAddress: 'a@one.example',
      unsubscribeUrl: 'https://one.example/u',
      unsubscribeOneClick: true,
    });
    const mailto = await receive(user, {
      fromAddress: 'b@two.example',
      unsubscribeMailto: 'mailto:u@two.example',
    });
    const page = await receive(user, {
      fromAddress: 'c@three.example',
      unsubscribeUrl: 'https://three.example/prefs',
    });
    const hostile = await receive(user, {
      fromAddress: 'd@four.example',
      unsubscribeUrl: 'javascript:alert(1)',
    });
    const none = await receive(user, { fromAddress: 'e@five.example' });
    const senders = new Map((await mailbox(user)).senders.map((sender) => [sender.senderId, sender]));
    expect(senders.get(oneClick.senderId)).toMatchObject({ canUnsubscribe: true, unsubscribePage: null });
    expect(senders.get(mailto.senderId)).toMatchObject({ canUnsubscribe: true, unsubscribePage: null });
    expect(senders.get(page.senderId)).toMatchObject({
      canUnsubscribe: false,
      unsubscribePage: 'https://three.example/prefs',
    });
    expect(senders.get(hostile.senderId)).toMatchObject({ canUnsubscribe: false, unsubscribePage: null });
    expect(senders.get(none.senderId)).toMatchObject({ canUnsubscribe: false, unsubscribePage: null });
  });

  it('has no address before the user has a username, and says when the quota is full', async () => {
    const user = await signUp(t);
    await receive(user, { text: 'x'.repeat(QUOTA_BYTES) });
    const box = await mailbox(user);
    expect(box.address).toBeNull();
    expect(box.full).toBe(true);
  });
});

describe('GET /api/newsletters/messages lists the inbox', () => {
  it('lists newest first, pages by cursor without repeating or skipping, and filters unread and by sender', async () => {
    const user = await signUp(t);
    const ids: string[] = [];
    for (let minute = 10; minute >= 1; minute--) {
      ids.unshift((await receive(user, { receivedAt: minutesAgo(minute) })).messageId);
    }
    const other = await receive(user, { fromAddress: 'other@else.example', receivedAt: minutesAgo(30) });
    const first = await messages(user, '?limit=4');
    const second = await messages(user, `?limit=4&cursor=${first.nextCursor}`);
    const third = await messages(user, `?limit=4&cursor=${second.nextCursor}`);
    expect([...first.messages, ...second.messages, ...third.messages].map((m) => m.messageId)).toEqual([
      ...ids,
      other.messageId,
    ]);
    expect(third.nextCursor).toBeNull();

    await api(user, 'PUT', `/api/newsletters/messages/${ids[0]}/read`, { read: true });
    const unread = await messages(user, '?unread=true');
    expect(unread.messages.map((m) => m.messageId)).not.toContain(ids[0]);
    expect(unread.messages).toHaveLength(10);
    const bySender = await messages(user, `?senderId=${other.senderId}`);
    expect(bySender.messages.map((m) => m.messageId)).toEqual([other.messageId]);
  });

  it('searches sender name, address and subject without case, and LIKE wildcards match only themselves', async () => {
    const user = await signUp(t);
    const byName = await receive(user, { fromName: 'The Morning Brew', fromAddress: 'a@brew.example' });
    const byAddress = await receive(user, { fromAddress: 'hello@stratechery.example', fromName: 'Ben' });
    const bySubject = await receive(user, {
      subject: 'Release notes: 100% done',
      fromAddress: 'c@c.example',
    });
    await receive(user, { subject: 'Nothing to see', fromAddress: 'd@d.example', fromName: 'Dee' });
    const ids = async (q: string) =>
      (await messages(user, `?q=${encodeURIComponent(q)}`)).messages.map((m) => m.messageId);
    expect(await ids('morning BREW')).toEqual([byName.messageId]);
    expect(await ids('STRATECHERY')).toEqual([byAddress.messageId]);
    expect(await ids('100%')).toEqual([bySubject.messageId]);
    expect(await ids('%')).toEqual([bySubject.messageId]);
    expect(await ids('_')).toEqual([]);
  });

  it('answers 400 naming the field for a bad query, and a cursor it did not give', async () => {
    const user = await signUp(t);
    for (const [query, field] of [
      ['?limit=0', 'querystring.limit'],
      ['?limit=1000', 'querystring.limit'],
      ['?senderId=abc', 'querystring.senderId'],
      ['?unread=yes', 'querystring.unread'],
      [`?q=${'a'.repeat(201)}`, 'querystring.q'],
      ['?colour=red', 'querystring'],
      ['?cursor=bm90IGEgY3Vyc29y', 'querystring.cursor'],
      [
        `?cursor=${Buffer.from(JSON.stringify(["1' or 1=1", randomUUID()])).toString('base64url')}`,
        'querystring.cursor',
      ],
    ]) {
      const response = await api(user, 'GET', `/api/newsletters/messages${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(field);
    }
  });
});

describe('GET /api/newsletters/messages/{id} opens a message', () => {
  it('answers the message, marks it read, and gives a signed link to its HTML', async () => {
    const user = await signUp(t);
    const { messageId } = await receive(user, { html: '<p>Hello <b>reader</b></p>' });
    const response = await api(user, 'GET', `/api/newsletters/messages/${messageId}`);
    expect(response.statusCode).toBe(200);
    const message = newsletterMessageSchema.parse(response.json());
    expect(message).toMatchObject({ messageId, read: true, hasHtml: true });
    expect(message.htmlUrl).toMatch(
      new RegExp(`^/api/newsletters/messages/${messageId}/html\\?expires=\\d+&signature=[\\w-]+$`),
    );
    expect((await messageRow(messageId))?.readAt).not.toBeNull();
  });

  it('has no HTML link for a text-only message', async () => {
    const user = await signUp(t);
    const { messageId } = await receive(user, { html: null });
    const response = await api(user, 'GET', `/api/newsletters/messages/${messageId}`);
    expect(response.json()).toMatchObject({ hasHtml: false, htmlUrl: null });
  });
});

describe("the reader frame's HTML is served only by its signed link, under a CSP where no script runs", () => {
  const attack =
    '<p>Hi</p><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>' +
    '<iframe src="https://evil.example"></iframe><form action="https://evil.example"><input></form>';

  it('serves the stored sanitised HTML with a sandboxing CSP, no referrer and nosniff', async () => {
    const user = await signUp(t);
    // As stored by the ingest, which sanitises; the headers hold even if something got through.
    const { messageId } = await receive(user, { html: attack });
    const response = await t.app.inject({ method: 'GET', url: await htmlUrlOf(user, messageId) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox allow-popups allow-popups-to-escape-sandbox');
    expect(csp).not.toMatch(/allow-scripts|allow-same-origin|allow-forms|script-src/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cache-control']).toMatch(/^private/);
    expect(response.body).toContain('<p>Hi</p>');
  });

  it('opens nothing with a tampered, expired, borrowed or missing signature', async () => {
    const [owner, other] = [await signUp(t), await signUp(t)];
    const { messageId } = await receive(owner);
    const theirs = await receive(other);
    const url = new URL(await htmlUrlOf(owner, messageId), 'http://app.test');
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    const otherUrl = new URL(await htmlUrlOf(other, theirs.messageId), 'http://app.test');
    const path = `/api/newsletters/messages/${messageId}/html`;
    for (const query of [
      '',
      `?expires=${expires}`,
      `?expires=${expires}&signature=${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `?expires=${Number(expires) + 60}&signature=${signature}`,
      `?expires=1000&signature=${signature}`,
      // The other user's valid signature for their own message does not open this one.
      otherUrl.search,
    ]) {
      const response = await t.app.inject({ method: 'GET', url: `${path}${query}` });
      expect(response.statusCode, query).toBe(404);
      expect(response.body).not.toContain('This week');
    }
    const notUuid = await t.app.inject({
      method: 'GET',
      url: `/api/newsletters/messages/nope/html${url.search}`,
    });
    expect(notUuid.statusCode).toBe(404);
  });
});

describe('read, dismiss and delete change only the owner’s messages', () => {
  it('marks read and unread', async () => {
    const user = await signUp(t);
    const { messageId } = await receive(user);
    const read = await api(user, 'PUT', `/api/newsletters/messages/${messageId}/read`, { read: true });
    expect(read.json().message).toMatchObject({ messageId, read: true });
    const unread = await api(user, 'PUT', `/api/newsletters/messages/${messageId}/read`, { read: false });
    expect(unread.json().message).toMatchObject({ read: false });
    expect((await messageRow(messageId))?.readAt).toBeNull();
  });

  it('dismisses a pinned message once, and refuses to dismiss a newsletter', async () => {
    const user = await signUp(t);
    const pinned = await receive(user, { kind: 'confirmation', confirmUrl: 'https://x.example/c' });
    const first = await api(user, 'POST', `/api/newsletters/messages/${pinned.messageId}/dismiss`);
    expect(first.json().message).toMatchObject({ resolved: true });
    const resolvedAt = (await messageRow(pinned.messageId))?.resolvedAt;
    await api(user, 'POST', `/api/newsletters/messages/${pinned.messageId}/dismiss`);
    expect((await messageRow(pinned.messageId))?.resolvedAt).toEqual(resolvedAt);
    expect((await mailbox(user)).pinned).toEqual([]);
    const plain = await receive(user);
    const refused = await api(user, 'POST', `/api/newsletters/messages/${plain.messageId}/dismiss`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('NEWSLETTER_NOT_PINNED');
  });

  it('deletes a message, and its bytes leave the quota', async () => {
    const user = await signUp(t);
    const { messageId } = await receive(user);
    expect((await mailbox(user)).usedBytes).toBeGreaterThan(0);
    const response = await api(user, 'DELETE', `/api/newsletters/messages/${messageId}`);
    expect(response.statusCode).toBe(200);
    expect(await messageRow(messageId)).toBeUndefined();
    expect((await mailbox(user)).usedBytes).toBe(0);
    expect((await api(user, 'DELETE', `/api/newsletters/messages/${messageId}`)).statusCode).toBe(404);
  });

  it("answers 404 for another user's message and changes nothing; 400 names the field of a bad body", async () => {
    const [owner, other] = [await signUp(t), await signUp(t)];
    const { messageId } = await receive(owner, { kind: 'confirmation', confirmUrl: 'https://x.example/c' });
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '/read', { read: true }],
      ['POST', '/dismiss', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const response = await api(other, method, `/api/newsletters/messages/${messageId}${suffix}`, body);
      expect(response.statusCode, `${method} ${suffix}`).toBe(404);
      expect(response.json().code).toBe('NEWSLETTER_MESSAGE_NOT_FOUND');
    }
    expect(await messageRow(messageId)).toMatchObject({ readAt: null, resolvedAt: null });
    for (const body of [{}, { read: 'yes' }, { read: true, extra: 1 }]) {
      const response = await api(owner, 'PUT', `/api/newsletters/messages/${messageId}/read`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^body/);
    }
    expect((await api(owner, 'GET', '/api/newsletters/messages/not-a-uuid')).statusCode).toBe(404);
    expect(await messageRow(messageId)).toMatchObject({ readAt: null });
  });
});

describe('a sender is included, muted or blocked, and "Delete all" keeps its state', () => {
  it('sets the state, and refuses anything but included, muted or blocked', async () => {
    const user = await signUp(t);
    const { senderId } = await receive(user);
    for (const state of ['muted', 'blocked', 'included'] as const) {
      const response = await api(user, 'PUT', `/api/newsletters/senders/${senderId}`, { state });
      expect(response.statusCode).toBe(200);
      expect(response.json().sender).toMatchObject({ senderId, state });
    }
    for (const body of [{ state: 'unsubscribed' }, { state: 'gone' }, {}]) {
      const response = await api(user, 'PUT', `/api/newsletters/senders/${senderId}`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('body.state');
    }
    expect((await senderRow(senderId))?.state).toBe('included');
  });

  it("deletes all of a sender's messages and keeps it, blocked if it was", async () => {
    const user = await signUp(t);
    const first = await receive(user);
    await receive(user);
    const kept = await receive(user, { fromAddress: 'someone@else.example' });
    await api(user, 'PUT', `/api/newsletters/senders/${first.senderId}`, { state: 'blocked' });
    const response = await api(user, 'DELETE', `/api/newsletters/senders/${first.senderId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().sender).toMatchObject({ state: 'blocked', storedCount: 0, messageCount: 2 });
    expect((await messages(user)).messages.map((m) => m.messageId)).toEqual([kept.messageId]);
  });

  it("answers 404 for another user's sender and changes nothing", async () => {
    const [owner, other] = [await signUp(t), await signUp(t)];
    const { senderId, messageId } = await receive(owner);
    expect(
      (await api(other, 'PUT', `/api/newsletters/senders/${senderId}`, { state: 'blocked' })).statusCode,
    ).toBe(404);
    expect((await api(other, 'DELETE', `/api/newsletters/senders/${senderId}`)).statusCode).toBe(404);
    expect((await senderRow(senderId))?.state).toBe('included');
    expect(await messageRow(messageId)).toBeDefined();
    const otherBox = await mailbox(other);
    expect(otherBox.senders).toEqual([]);
    expect((await messages(other)).messages).toEqual([]);
  });
});

describe('every mailbox route needs a signed-in user and is documented', () => {
  it('answers 401 without a token', async () => {
    const id = randomUUID();
    for (const [method, url, body] of [
      ['GET', '/api/newsletters'],
      ['GET', '/api/newsletters/messages'],
      ['GET', `/api/newsletters/messages/${id}`],
      ['PUT', `/api/newsletters/messages/${id}/read`, { read: true }],
      ['POST', `/api/newsletters/messages/${id}/dismiss`],
      ['DELETE', `/api/newsletters/messages/${id}`],
      ['PUT', `/api/newsletters/senders/${id}`, { state: 'muted' }],
      ['DELETE', `/api/newsletters/senders/${id}`],
    ] as const) {
      const response = await api(null, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('documents each route in the OpenAPI document, the HTML one without bearer auth', async () => {
    const document = (await api(null, 'GET', '/api/openapi.json')).json();
    for (const [path, method] of [
      ['/api/newsletters', 'get'],
      ['/api/newsletters/messages', 'get'],
      ['/api/newsletters/messages/{id}', 'get'],
      ['/api/newsletters/messages/{id}', 'delete'],
      ['/api/newsletters/messages/{id}/read', 'put'],
      ['/api/newsletters/messages/{id}/dismiss', 'post'],
      ['/api/newsletters/senders/{id}', 'put'],
      ['/api/newsletters/senders/{id}', 'delete'],
      ['/api/newsletters/senders/{id}/unsubscribe', 'post'],
      ['/api/newsletters/messages/{id}/reply', 'post'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary).toBeTruthy();
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
    const html = document.paths['/api/newsletters/messages/{id}/html']?.get;
    expect(html?.summary).toBeTruthy();
    expect(html?.security).toBeUndefined();
  });
});
