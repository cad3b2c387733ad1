import type { IncomingMessage } from 'node:http';
import { newsletterUnsubscribeResponseSchema } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSenders } from '#server/db/schema';
import { callerOf } from '#server/modules/digests/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { updateUser } from '#server/modules/users/users.repository';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { upstreamServers } from '#server-test/upstream-server';
import { NEWSLETTER_OUTBOUND_RATE_LIMITS } from './newsletters.routes';
import { receiveTestNewsletter, type TestNewsletter } from './test-support';

const startUpstream = upstreamServers();

/** The app as deployed with FETCH_ALLOW_PRIVATE_HOSTS=127.0.0.1 (its local servers stand in for senders). */
let t: TestApi;
/** The app as deployed by default: nothing private is reached. */
let strict: TestApi;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApi({ smtp, fakes: { env: {} } });
  strict = await startTestApi({ database: t.database });
});
afterAll(async () => {
  await strict?.close();
  await t?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);
const strictApi = callerOf(() => strict.app);

async function userWithAddress(username: string) {
  const user = await signUp(t);
  await updateUser(t.database.db, user.userId, { username, updatedAt: new Date() });
  return user;
}

async function senderWith(user: TestUser, newsletter: TestNewsletter) {
  return (await receiveTestNewsletter(t.database.db, user.userId, newsletter)).senderId;
}

async function senderRow(senderId: string) {
  const [row] = await t.database.db
    .select()
    .from(newsletterSenders)
    .where(eq(newsletterSenders.senderId, senderId));
  return row;
}

/** A sender's server that records each request with its body. */
async function listServer(status = 200) {
  const received: { request: IncomingMessage; body: string }[] = [];
  const upstream = await startUpstream((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ request, body });
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return { ...upstream, received };
}

describe('Unsubscribe with RFC 8058 one-click', () => {
  it('POSTs List-Unsubscribe=One-Click form-encoded, without cookies, and marks the sender unsubscribed', async () => {
    const user = await userWithAddress('oneclick1');
    const server = await listServer();
    const senderId = await senderWith(user, {
      unsubscribeUrl: `${server.base}/unsubscribe/abc?list=7`,
      unsubscribeOneClick: true,
      unsubscribeMailto: 'mailto:leave@letters.example',
    });
    const response = await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(response.statusCode).toBe(200);
    const answer = newsletterUnsubscribeResponseSchema.parse(response.json());
    expect(answer).toMatchObject({ outcome: 'sent', link: null });
    expect(answer.sender).toMatchObject({ state: 'unsubscribed', unsubscribe: { outcome: 'sent' } });

    expect(server.received).toHaveLength(1);
    const [{ request, body }] = server.received as [(typeof server.received)[number]];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/unsubscribe/abc?list=7');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(body).toBe('List-Unsubscribe=One-Click');
    expect(request.headers.cookie).toBeUndefined();
    expect(request.headers.authorization).toBeUndefined();
    // One-click worked: the mailto was not needed.
    expect(smtp.received.filter((mail) => mail.rcptTo.includes('leave@letters.example'))).toEqual([]);
  });

  it('stores a failure with what the server answered, keeps the state, and falls back to the mailto', async () => {
    const user = await userWithAddress('oneclick2');
    const server = await listServer(500);
    const failing = await senderWith(user, {
      fromAddress: 'a@fail.example',
      unsubscribeUrl: `${server.base}/u`,
      unsubscribeOneClick: true,
    });
    const response = await api(user, 'POST', `/api/newsletters/senders/${failing}/unsubscribe`);
    expect(response.json()).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('HTTP 500') });
    expect(await senderRow(failing)).toMatchObject({ state: 'included', unsubscribeOutcome: 'failed' });

    const withMailto = await senderWith(user, {
      fromAddress: 'b@fail.example',
      unsubscribeUrl: `${server.base}/u`,
      unsubscribeOneClick: true,
      unsubscribeMailto: 'mailto:fallback@fail.example?subject=leave',
    });
    const fallback = await api(user, 'POST', `/api/newsletters/senders/${withMailto}/unsubscribe`);
    expect(fallback.json()).toMatchObject({ outcome: 'sent', sender: { state: 'unsubscribed' } });
    expect(smtp.received.some((mail) => mail.rcptTo.includes('fallback@fail.example'))).toBe(true);
  });

  it('keeps a blocked sender blocked after unsubscribing', async () => {
    const user = await userWithAddress('oneclick3');
    const server = await listServer();
    const senderId = await senderWith(user, {
      unsubscribeUrl: `${server.base}/u`,
      unsubscribeOneClick: true,
    });
    await api(user, 'PUT', `/api/newsletters/senders/${senderId}`, { state: 'blocked' });
    const response = await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(response.json()).toMatchObject({ outcome: 'sent', sender: { state: 'blocked' } });
  });
});

describe('Unsubscribe by mailto', () => {
  it('mails the list from the user’s own address with the subject and body of the mailto', async () => {
    const user = await userWithAddress('mailtoreader');
    const senderId = await senderWith(user, {
      unsubscribeMailto: 'mailto:list-request@lists.example?subject=unsubscribe%20weekly&body=remove%20me',
    });
    const response = await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(response.json()).toMatchObject({ outcome: 'sent', sender: { state: 'unsubscribed' } });
    const sent = smtp.received.find((mail) => mail.rcptTo.includes('list-request@lists.example'));
    expect(sent?.mailFrom).toBe('mailtoreader@digest.test');
    expect(sent?.parsed.from?.value[0]?.address).toBe('mailtoreader@digest.test');
    expect(sent?.parsed.subject).toBe('unsubscribe weekly');
    expect(sent?.parsed.text?.trim()).toBe('remove me');
  });

  it('needs a username (the address it is sent from), and refuses a mailto that names several addresses', async () => {
    const user = await signUp(t);
    const senderId = await senderWith(user, { unsubscribeMailto: 'mailto:leave@lists.example' });
    const noAddress = await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(noAddress.statusCode).toBe(422);
    expect(noAddress.json().code).toBe('NO_NEWSLETTER_ADDRESS');

    const named = await userWithAddress('mailtoreader2');
    const several = await senderWith(named, {
      unsubscribeMailto: 'mailto:a@lists.example,victim@else.example?subject=x',
    });
    const before = smtp.received.length;
    const response = await api(named, 'POST', `/api/newsletters/senders/${several}/unsubscribe`);
    expect(response.json()).toMatchObject({ outcome: 'failed' });
    expect(smtp.received.length).toBe(before);
  });
});

describe('Unsubscribe never fetches a plain link, and refuses hostile ones', () => {
  it('hands a web link without one-click back to the user, unfetched', async () => {
    const user = await userWithAddress('weblink');
    const server = await listServer();
    const senderId = await senderWith(user, {
      unsubscribeUrl: `${server.base}/manage`,
      unsubscribeOneClick: false,
    });
    const response = await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(response.json()).toMatchObject({ outcome: 'open_link', link: `${server.base}/manage` });
    expect(server.received).toEqual([]);
    expect(await senderRow(senderId)).toMatchObject({ state: 'included', unsubscribeOutcome: null });
  });

  it('refuses http://127.0.0.1, https to a private address, file: and javascript: on a default deployment', async () => {
    const user = await signUp(strict);
    const server = await listServer();
    const port = new URL(server.base).port;
    for (const unsubscribeUrl of [
      `${server.base}/u`,
      `https://127.0.0.1:${port}/u`,
      'https://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ]) {
      const senderId = await senderWith(user, {
        fromAddress: `${encodeURIComponent(unsubscribeUrl).slice(0, 30)}@hostile.example`.toLowerCase(),
        unsubscribeUrl,
        unsubscribeOneClick: true,
      });
      const response = await strictApi(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
      expect(response.statusCode, unsubscribeUrl).toBe(200);
      expect(response.json(), unsubscribeUrl).toMatchObject({ outcome: 'failed', link: null });
      expect((await senderRow(senderId))?.state).toBe('included');
    }
    expect(server.received).toEqual([]);
  });

  it('answers 422 when the sender gave no way to unsubscribe, 404 for another user’s sender, 401 without a token', async () => {
    const [owner, other] = [await userWithAddress('owner1'), await signUp(t)];
    const none = await senderWith(owner, {});
    const noWay = await api(owner, 'POST', `/api/newsletters/senders/${none}/unsubscribe`);
    expect(noWay.statusCode).toBe(422);
    expect(noWay.json().code).toBe('NO_UNSUBSCRIBE');

    const server = await listServer();
    const senderId = await senderWith(owner, {
      fromAddress: 'x@owned.example',
      unsubscribeUrl: `${server.base}/u`,
      unsubscribeOneClick: true,
    });
    const theirs = await api(other, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(theirs.statusCode).toBe(404);
    expect((await api(null, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`)).statusCode).toBe(
      401,
    );
    expect(server.received).toEqual([]);
    expect(await senderRow(senderId)).toMatchObject({ state: 'included', unsubscribeOutcome: null });
  });

  it('is limited per user', async () => {
    const user = await signUp(t);
    const senderId = await senderWith(user, {});
    const { max } = NEWSLETTER_OUTBOUND_RATE_LIMITS.unsubscribe;
    for (let attempt = 0; attempt < max; attempt++) {
      expect((await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`)).statusCode).toBe(
        422,
      );
    }
    const limited = await api(user, 'POST', `/api/newsletters/senders/${senderId}/unsubscribe`);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
