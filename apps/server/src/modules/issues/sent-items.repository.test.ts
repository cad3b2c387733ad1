import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { digestSentItems, digests, users } from '#server/db/schema';
import { deleteForgottenSentItems } from '#server/modules/housekeeping/housekeeping.repository';
import { createTestDatabase } from '#server-test/test-database';
import { sentSince } from './sent-items.repository';
import { recordSentItems } from './test-support';

let database: DatabaseHandle;
let digestId: string;
let otherDigestId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({ email: 'sent@example.com', method: 'email' })
    .returning({ userId: users.userId });
  const made = await database.db
    .insert(digests)
    .values(['One', 'Two'].map((name) => ({ userId: user?.userId ?? '', name, sources: [] })))
    .returning({ digestId: digests.digestId });
  digestId = made[0]?.digestId ?? '';
  otherDigestId = made[1]?.digestId ?? '';
});
afterAll(() => database?.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-20T07:00:00Z');
const since = new Date(now.getTime() - 90 * DAY_MS);
const key = (sourceKey: string, identity: string) => ({ sourceKey, identity });

describe('the items a digest sent, per source, for 90 days', () => {
  it('answers which of the asked items this digest’s source carried since the bound, never another digest’s or source’s', async () => {
    await recordSentItems(database.db, {
      digestId,
      keys: [key('feed', 'a'), key('feed', 'b')],
      at: now,
      since,
    });
    await recordSentItems(database.db, { digestId: otherDigestId, keys: [key('feed', 'c')], at: now, since });
    const asked = [key('feed', 'a'), key('feed', 'c'), key('other-feed', 'b')];
    expect([...(await sentSince(database.db, digestId, asked, since))]).toEqual(['feed a']);
    expect(await sentSince(database.db, digestId, [], since)).toEqual(new Set());
  });

  it('stores a batch in one statement, twice the same key once, and says whether every key was new', async () => {
    const keys = [key('batch', '1'), key('batch', '2'), key('batch', '1')];
    expect(await recordSentItems(database.db, { digestId, keys, at: now, since })).toBe(true);
    // Another issue recorded `2` meanwhile: the answer is false and the row stays as it was.
    const later = new Date(now.getTime() + 1000);
    expect(
      await recordSentItems(database.db, {
        digestId,
        keys: [key('batch', '2'), key('batch', '3')],
        at: later,
        since,
      }),
    ).toBe(false);
    const rows = await database.db.select().from(digestSentItems);
    expect(rows.filter((row) => row.sourceKey === 'batch' && row.identity === '2')).toEqual([
      { digestId, sourceKey: 'batch', identity: '2', firstSentAt: now },
    ]);
    expect(await recordSentItems(database.db, { digestId, keys: [], at: now, since })).toBe(true);
  });

  it('renews an item sent before the bound (it came back), which then counts again', async () => {
    const old = new Date(since.getTime() - DAY_MS);
    await recordSentItems(database.db, { digestId, keys: [key('old', 'x')], at: old, since: old });
    expect(await sentSince(database.db, digestId, [key('old', 'x')], since)).toEqual(new Set());
    expect(await recordSentItems(database.db, { digestId, keys: [key('old', 'x')], at: now, since })).toBe(
      true,
    );
    expect([...(await sentSince(database.db, digestId, [key('old', 'x')], since))]).toEqual(['old x']);
  });

  it('is forgotten by housekeeping past 90 days, younger rows kept', async () => {
    const old = new Date(now.getTime() - 91 * DAY_MS);
    await recordSentItems(database.db, { digestId, keys: [key('prune', 'old')], at: old, since: old });
    await recordSentItems(database.db, { digestId, keys: [key('prune', 'young')], at: now, since });
    expect(await deleteForgottenSentItems(database.db, now)).toBe(1);
    const left = (await database.db.select().from(digestSentItems)).filter(
      (row) => row.sourceKey === 'prune',
    );
    expect(left.map((row) => row.identity)).toEqual(['young']);
  });
});
