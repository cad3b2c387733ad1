import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMessages } from '#server/db/schema';
import { callerOf } from '#server/modules/digests/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { updateUser } from '#server/modules/users/users.repository';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { CONFIRMING_REPLY } from './reply-to-confirm';
import { receiveTestNewsletter, type TestNewsletter } from './test-support';

const REFUSING = 'refuses@lists.example';
let t: TestApi;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer({ rejectRcpt: (address) => (address === REFUSING ? 550 : undefined) });
  t = await startTestApi({ smtp });
});
afterAll(async () => {
  await t?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);

async function userWithAddress(username: string) {
  const user = await signUp(t);
  await updateUser(t.database.db, user.userId, { username, updatedAt: new Date() });
  return user;
}

/** A reply-to-confirm message as the ingest stores it, with its Reply-To. */
async function replyToConfirmMessage(user: TestUser, replyTo: string | null, extra: TestNewsletter = {}) {
  const { messageId } = await receiveTestNewsletter(t.database.db, user.userId, {
    kind: 'reply_to_confirm',
    fromAddress: 'sam@letters.example',
    subject: 'Confirm your subscription to Sam’s Letters',
    ...extra,
  });
  await t.database.db
    .update(inboundMessages)
    .set({ replyTo })
    .where(eq(inboundMessages.messageId, messageId));
  return messageId;
}

async function messageRow(messageId: string) {
  const [row] = await t.database.db
    .select()
    .from(inboundMessages)
    .where(eq(inboundMessages.messageId, messageId));
  return row;
}

const sentTo = (address: string) => smtp.received.filter((mail) => mail.rcptTo.includes(address));

describe('Reply confirms a reply-to-confirm subscription, once', () => {
  it('sends "Re: <subject>" from the user’s address to the Reply-To, naming the original, and resolves it', async () => {
    const user = await userWithAddress('replier1');
    const messageId = await replyToConfirmMessage(user, 'confirm+k3y@lists.example', {
      internetMessageId: 'c0nfirm-42@letters.example',
    });
    const response = await api(user, 'POST', `/api/newsletters/messages/${messageId}/reply`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toMatchObject({ messageId, resolved: true });

    const [sent] = sentTo('confirm+k3y@lists.example');
    expect(sent?.mailFrom).toBe('replier1@digest.test');
    expect(sent?.parsed.from?.value[0]?.address).toBe('replier1@digest.test');
    expect(sent?.parsed.subject).toBe('Re: Confirm your subscription to Sam’s Letters');
    expect(sent?.parsed.inReplyTo).toBe('<c0nfirm-42@letters.example>');
    expect(sent?.parsed.references).toBe('<c0nfirm-42@letters.example>');
    expect(sent?.parsed.text?.trim()).toBe(CONFIRMING_REPLY);
    expect((await messageRow(messageId))?.resolvedAt).not.toBeNull();

    const again = await api(user, 'POST', `/api/newsletters/messages/${messageId}/reply`);
    expect(again.statusCode).toBe(409);
    expect(sentTo('confirm+k3y@lists.example')).toHaveLength(1);
  });

  it('goes to the From address without a Reply-To, and two clicks at once send one reply', async () => {
    const user = await userWithAddress('replier2');
    const messageId = await replyToConfirmMessage(user, null, { fromAddress: 'owner@twice.example' });
    const answers = await Promise.all([
      api(user, 'POST', `/api/newsletters/messages/${messageId}/reply`),
      api(user, 'POST', `/api/newsletters/messages/${messageId}/reply`),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(sentTo('owner@twice.example')).toHaveLength(1);
  });

  it('when the mail server refuses, answers 502 and leaves the message pinned to try again', async () => {
    const user = await userWithAddress('replier3');
    const messageId = await replyToConfirmMessage(user, REFUSING);
    const response = await api(user, 'POST', `/api/newsletters/messages/${messageId}/reply`);
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('REPLY_NOT_SENT');
    expect((await messageRow(messageId))?.resolvedAt).toBeNull();
  });
});

describe('Reply is refused for anything else, and sends nothing', () => {
  it('refuses a newsletter or a confirmation (422) and a user without a username (422)', async () => {
    const user = await userWithAddress('replier4');
    for (const kind of ['newsletter', 'confirmation', 'forwarding_code'] as const) {
      const { messageId } = await receiveTestNewsletter(t.database.db, user.userId, {
        kind,
        fromAddress: 'not-this@kinds.example',
      });
      const response = await api(user, 'POST', `/api/newsletters/messages/${messageId}/reply`);
      expect(response.statusCode, kind).toBe(422);
      expect(response.json().code).toBe('NOT_REPLY_TO_CONFIRM');
    }
    const nameless = await signUp(t);
    const messageId = await replyToConfirmMessage(nameless, 'nameless@kinds.example');
    const response = await api(nameless, 'POST', `/api/newsletters/messages/${messageId}/reply`);
    expect(response.json().code).toBe('NO_NEWSLETTER_ADDRESS');
    expect((await messageRow(messageId))?.resolvedAt).toBeNull();
    expect(sentTo('not-this@kinds.example')).toEqual([]);
    expect(sentTo('nameless@kinds.example')).toEqual([]);
  });

  it('answers 404 for another user’s message and 401 without a token', async () => {
    const [owner, other] = [await userWithAddress('replier5'), await userWithAddress('replier6')];
    const messageId = await replyToConfirmMessage(owner, 'owned@kinds.example');
    expect((await api(other, 'POST', `/api/newsletters/messages/${messageId}/reply`)).statusCode).toBe(404);
    expect((await api(null, 'POST', `/api/newsletters/messages/${messageId}/reply`)).statusCode).toBe(401);
    expect((await messageRow(messageId))?.resolvedAt).toBeNull();
    expect(sentTo('owned@kinds.example')).toEqual([]);
  });
});
