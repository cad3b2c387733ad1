import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { deliveries, digestBuilds, digestSentItems, digests, issueRuns, users } from '#server/db/schema';
import type { IssueDelivery } from '#server/modules/deliveries/deliveries.repository';
import { createTestDatabase } from '#server-test/test-database';
import { storeIssue } from './issues.repository';

let database: DatabaseHandle;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({ email: 'store@example.com', method: 'email' })
    .returning({ userId: users.userId });
  userId = user?.userId ?? '';
});
afterAll(() => database?.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-20T07:00:00Z');
const since = new Date(now.getTime() - 90 * DAY_MS);
const key = (sourceKey: string, identity: string) => ({ sourceKey, identity });

async function queuedRun(digestId: string, slot: Date) {
  const [run] = await database.db
    .insert(issueRuns)
    .values({ digestId, slot })
    .returning({ runId: issueRuns.runId });
  return { digestId, runId: run?.runId ?? '' };
}

async function digestWithRun() {
  const [digest] = await database.db
    .insert(digests)
    .values({ userId, name: 'Stored', sources: [] })
    .returning({ digestId: digests.digestId });
  return queuedRun(digest?.digestId ?? '', now);
}

const nextDay = new Date(now.getTime() + DAY_MS);

function delivery(recipient: string, state: IssueDelivery['state'] = 'pending'): IssueDelivery {
  const deliveryId = randomUUID();
  return {
    deliveryId,
    recipient,
    kind: recipient.startsWith('owner') ? 'owner' : 'subscriber',
    subscriberId: null,
    state,
    lastError: state === 'cancelled' ? 'over the cap' : null,
    messageId: `<${deliveryId}@digest.test>`,
  };
}

function issueOf(
  ids: { digestId: string; runId: string },
  buildNumber: number,
  keys: ReturnType<typeof key>[],
  rows: IssueDelivery[],
) {
  return {
    ...ids,
    buildId: randomUUID(),
    buildNumber,
    html: `<p>issue ${buildNumber}</p>`,
    text: `issue ${buildNumber}`,
    publicHtml: `<p>public issue ${buildNumber}</p>`,
    createdAt: now,
    sentItems: { digestId: ids.digestId, keys, at: now, since },
    deliveries: rows,
  };
}

/** As the build job stores an issue with no newsletters and no subscribers: one statement on its own. */
const store = (issue: ReturnType<typeof issueOf>) => storeIssue(database.db, issue);

const buildsOf = (digestId: string) =>
  database.db.select().from(digestBuilds).where(eq(digestBuilds.digestId, digestId));
const itemsOf = (digestId: string) =>
  database.db.select().from(digestSentItems).where(eq(digestSentItems.digestId, digestId));
const deliveriesOf = (digestId: string) =>
  database.db.select().from(deliveries).where(eq(deliveries.digestId, digestId));

describe('storing an issue in one statement', () => {
  it('stores the issue, its items, its deliveries (one per recipient) and marks its run built; answers the pending ones', async () => {
    const ids = await digestWithRun();
    const owner = delivery('owner@example.com');
    const friend = delivery('friend@example.com');
    const capped = delivery('late@example.com', 'cancelled');
    const again = delivery('friend@example.com');
    const issue = issueOf(
      ids,
      1,
      [key('feed', 'a'), key('feed', 'b'), key('feed', 'a')],
      [owner, friend, capped, again],
    );

    const outcome = await store(issue);

    expect(outcome.stored).toBe(true);
    expect(outcome.stored && [...outcome.pendingDeliveryIds].sort()).toEqual(
      [owner.deliveryId, friend.deliveryId].sort(),
    );
    const [build] = await buildsOf(ids.digestId);
    expect(build).toMatchObject({
      buildId: issue.buildId,
      buildNumber: 1,
      html: issue.html,
      text: issue.text,
      publicHtml: issue.publicHtml,
    });
    const [run] = await database.db.select().from(issueRuns).where(eq(issueRuns.runId, ids.runId));
    expect(run).toMatchObject({ status: 'built', buildId: issue.buildId, reason: null });
    expect(run?.finishedAt?.toISOString()).toBe(now.toISOString());
    expect((await itemsOf(ids.digestId)).map((row) => row.identity).sort()).toEqual(['a', 'b']);
    const rows = await deliveriesOf(ids.digestId);
    expect(rows.map((row) => [row.recipient, row.state, row.lastError, row.buildId]).sort()).toEqual(
      [
        ['friend@example.com', 'pending', null, issue.buildId],
        ['late@example.com', 'cancelled', 'over the cap', issue.buildId],
        ['owner@example.com', 'pending', null, issue.buildId],
      ].sort(),
    );
    const byId = new Map(rows.map((row) => [row.deliveryId, row]));
    expect(byId.get(owner.deliveryId)).toMatchObject({ kind: 'owner', messageId: owner.messageId });
    expect(byId.get(owner.deliveryId)?.bounceToken).toMatch(/^[0-9a-f]{32}$/);
  });

  it('stores nothing when the number was taken meanwhile, and says so', async () => {
    const ids = await digestWithRun();
    expect((await store(issueOf(ids, 1, [], [delivery('owner@example.com')]))).stored).toBe(true);
    const late = issueOf(
      await queuedRun(ids.digestId, nextDay),
      1,
      [key('feed', 'z')],
      [delivery('owner@example.com')],
    );

    expect(await store(late)).toEqual({ stored: false, numberTaken: true, itemsCarried: true });

    expect(await buildsOf(ids.digestId)).toHaveLength(1);
    expect(await itemsOf(ids.digestId)).toEqual([]);
    expect(await deliveriesOf(ids.digestId)).toHaveLength(1);
    const [run] = await database.db.select().from(issueRuns).where(eq(issueRuns.runId, late.runId));
    expect(run).toMatchObject({ status: 'queued', buildId: null });
  });

  it('stores nothing when another issue carried one of its items meanwhile, not even its new items, and says so', async () => {
    const ids = await digestWithRun();
    expect((await store(issueOf(ids, 1, [key('feed', 'a')], [delivery('owner@example.com')]))).stored).toBe(
      true,
    );
    const second = issueOf(
      await queuedRun(ids.digestId, nextDay),
      2,
      [key('feed', 'a'), key('feed', 'b')],
      [delivery('owner@example.com')],
    );

    expect(await store(second)).toEqual({ stored: false, numberTaken: false, itemsCarried: true });

    expect((await buildsOf(ids.digestId)).map((build) => build.buildNumber)).toEqual([1]);
    expect(await deliveriesOf(ids.digestId)).toHaveLength(1);
    // The statement failed as a whole: the new item it had written is undone with no transaction around it.
    expect((await itemsOf(ids.digestId)).map((row) => row.identity).sort()).toEqual(['a']);
    const [run] = await database.db.select().from(issueRuns).where(eq(issueRuns.runId, second.runId));
    expect(run).toMatchObject({ status: 'queued', buildId: null });
  });
});
