import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMessages, newsletterSenders } from '#server/db/schema';
import { signUp } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { receiveTestNewsletter } from './test-support';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(async () => {
  await t?.close();
});

describe('storing a received message', () => {
  it('stores the same Message-ID twice as one message, counted once', async () => {
    const user = await signUp(t);
    const first = await receiveTestNewsletter(t.database.db, user.userId, { internetMessageId: 'once@x' });
    const again = await receiveTestNewsletter(t.database.db, user.userId, { internetMessageId: 'once@x' });
    expect(first.stored).toBe(true);
    expect(again).toEqual({ stored: false, messageId: first.messageId, senderId: first.senderId });
    const [sender] = await t.database.db
      .select()
      .from(newsletterSenders)
      .where(eq(newsletterSenders.senderId, first.senderId));
    expect(sender?.messageCount).toBe(1);
  });

  it('keeps one sender per List-Id whatever its From address, and one per address without a list', async () => {
    const user = await signUp(t);
    const db = t.database.db;
    const a = await receiveTestNewsletter(db, user.userId, {
      listId: 'Weekly.Example.com',
      fromAddress: 'a@example.com',
    });
    const b = await receiveTestNewsletter(db, user.userId, {
      listId: 'weekly.example.com',
      fromAddress: 'b@example.com',
    });
    const c = await receiveTestNewsletter(db, user.userId, { fromAddress: 'b@example.com' });
    expect(b.senderId).toBe(a.senderId);
    expect(c.senderId).not.toBe(a.senderId);
    const [sender] = await db
      .select()
      .from(newsletterSenders)
      .where(eq(newsletterSenders.senderId, a.senderId));
    expect(sender).toMatchObject({ address: 'b@example.com', listId: 'weekly.example.com', messageCount: 2 });
  });

  it('keeps the same Message-ID for two users as two messages', async () => {
    const [one, two] = [await signUp(t), await signUp(t)];
    await receiveTestNewsletter(t.database.db, one.userId, { internetMessageId: 'shared@x' });
    await receiveTestNewsletter(t.database.db, two.userId, { internetMessageId: 'shared@x' });
    const rows = await t.database.db
      .select()
      .from(inboundMessages)
      .where(eq(inboundMessages.internetMessageId, 'shared@x'));
    expect(rows.map((row) => row.userId).sort()).toEqual([one.userId, two.userId].sort());
  });
});
