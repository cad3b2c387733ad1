import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { deliveries, digestBuilds, digests, users } from '#server/db/schema';
import { createTestDatabase } from '#server-test/test-database';
import { claimDelivery, markFinalDot, settleClaim } from './deliveries.repository';

// The statements every delivery runs (claim, final-dot mark, settle) are built once per database: these
// check that what they write still depends on each call's values, on two databases in one process.

let first: DatabaseHandle;
let second: DatabaseHandle;

beforeAll(async () => {
  [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(() => Promise.all([first?.close(), second?.close()]));

const claimedAt = new Date('2026-11-20T07:00:00Z');
const markedAt = new Date('2026-11-20T07:00:01Z');
const settledAt = new Date('2026-11-20T07:00:02Z');

/** A pending delivery of a stored issue, in `database`. */
async function pendingDelivery(database: DatabaseHandle, lastError: string | null = null) {
  const db = database.db;
  const [user] = await db
    .insert(users)
    .values({ email: `${randomUUID()}@example.com`, method: 'email', confirmed: true })
    .returning({ userId: users.userId });
  const [digest] = await db
    .insert(digests)
    .values({ userId: user?.userId ?? '', name: 'Claimed', sources: [] })
    .returning({ digestId: digests.digestId });
  const digestId = digest?.digestId ?? '';
  const [build] = await db
    .insert(digestBuilds)
    .values({ digestId, buildNumber: 1, html: '<p>One</p>', text: 'One' })
    .returning({ buildId: digestBuilds.buildId });
  const deliveryId = randomUUID();
  await db.insert(deliveries).values({
    deliveryId,
    buildId: build?.buildId ?? '',
    digestId,
    recipient: 'reader@example.com',
    kind: 'owner',
    messageId: `<${deliveryId}@digest.test>`,
    lastError,
  });
  return deliveryId;
}

const rowOf = async (database: DatabaseHandle, deliveryId: string) => {
  const [row] = await database.db.select().from(deliveries).where(eq(deliveries.deliveryId, deliveryId));
  if (!row) throw new Error('no delivery');
  return row;
};

describe('claim, final-dot mark and settle', () => {
  it('claims each pending delivery once, with its own time and mail', async () => {
    for (const database of [first, second]) {
      const deliveryId = await pendingDelivery(database);
      const claim = await claimDelivery(database.db, deliveryId, claimedAt);
      expect(claim).toMatchObject({ deliveryId, attempts: 1, html: '<p>One</p>', ownerConfirmed: true });
      expect(await claimDelivery(database.db, deliveryId, claimedAt)).toBeUndefined();
      const row = await rowOf(database, deliveryId);
      expect(row).toMatchObject({ state: 'sending', beforeFinalDot: true, attempts: 1 });
      expect(row.sendingAt).toEqual(claimedAt);
    }
  });

  it('marks the final dot only for the claim that holds the row, once', async () => {
    const deliveryId = await pendingDelivery(first);
    const claim = await claimDelivery(first.db, deliveryId, claimedAt);
    if (!claim) throw new Error('not claimed');
    expect(await markFinalDot(first.db, { deliveryId, attempts: claim.attempts + 1 }, markedAt)).toBe(false);
    expect(await markFinalDot(first.db, { deliveryId, attempts: claim.attempts }, markedAt)).toBe(true);
    expect(await markFinalDot(first.db, { deliveryId, attempts: claim.attempts }, markedAt)).toBe(false);
    const row = await rowOf(first, deliveryId);
    expect(row).toMatchObject({ state: 'sending', beforeFinalDot: false });
    expect(row.updatedAt).toEqual(markedAt);
  });

  it('writes when it was sent on a settle to sent, and keeps an earlier error when none is given', async () => {
    const deliveryId = await pendingDelivery(second, 'Greylisted, try again later');
    const claim = await claimDelivery(second.db, deliveryId, claimedAt);
    if (!claim) throw new Error('not claimed');
    await settleClaim(second.db, claim, 'sent', settledAt);
    const row = await rowOf(second, deliveryId);
    expect(row).toMatchObject({
      state: 'sent',
      beforeFinalDot: false,
      lastError: 'Greylisted, try again later',
    });
    expect(row.sentAt).toEqual(settledAt);
    expect(row.updatedAt).toEqual(settledAt);
  });

  it('writes the error of a settle back to pending, and no time of sending', async () => {
    const deliveryId = await pendingDelivery(first);
    const claim = await claimDelivery(first.db, deliveryId, claimedAt);
    if (!claim) throw new Error('not claimed');
    await settleClaim(first.db, claim, 'pending', settledAt, '421 Too busy');
    const row = await rowOf(first, deliveryId);
    expect(row).toMatchObject({ state: 'pending', lastError: '421 Too busy', sentAt: null });
  });

  it('leaves a row alone when an older attempt settles it', async () => {
    const deliveryId = await pendingDelivery(second);
    const claim = await claimDelivery(second.db, deliveryId, claimedAt);
    if (!claim) throw new Error('not claimed');
    await settleClaim(second.db, { deliveryId, attempts: claim.attempts - 1 }, 'failed', settledAt, 'late');
    expect(await rowOf(second, deliveryId)).toMatchObject({
      state: 'sending',
      lastError: null,
      sentAt: null,
    });
  });
});
