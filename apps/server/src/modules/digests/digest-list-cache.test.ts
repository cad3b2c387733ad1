import { randomUUID } from 'node:crypto';
import { type DigestSummary, digestListResponseSchema } from '@digest/contracts';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeHandlers, DatabaseChanges } from '#server/db/database-changes';
import { digestBuilds, digestSubscribers, digests, users } from '#server/db/schema';
import { signUp, startTestApp, type TestApp, type TestUser } from '#server/modules/users/test-support';
import { createDigestListCache } from './digest-list-cache';
import { callerOf, createDigest } from './test-support';

/** Notifications told by hand: what the database's triggers and the listening connection would tell. */
function handChanges() {
  const subscribers: ChangeHandlers[] = [];
  let heard = true;
  const changes: DatabaseChanges = {
    subscribe(_channel, handlers) {
      subscribers.push(handlers);
      return { heard: () => heard };
    },
    async close() {},
  };
  return {
    changes,
    change: (userId: string) => {
      for (const handlers of subscribers) handlers.onChange(userId);
    },
    lose() {
      heard = false;
      for (const handlers of subscribers) handlers.onMissed();
    },
    listenAgain() {
      heard = true;
    },
  };
}

/** A load that counts its calls and answers a list named after the call. */
function countedLoad() {
  let calls = 0;
  const load = async () => {
    calls += 1;
    return [{ name: `read ${calls}` } as DigestSummary];
  };
  return { load, calls: () => calls };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('the digest list memory, with notifications told by hand', () => {
  it('answers a list read again without a change from memory', async () => {
    const { changes } = handChanges();
    const cache = createDigestListCache({ changes, maxUsers: 10 });
    const { load, calls } = countedLoad();
    expect(await cache.read('u1', load)).toEqual([{ name: 'read 1' }]);
    expect(await cache.read('u1', load)).toEqual([{ name: 'read 1' }]);
    expect(calls()).toBe(1);
  });

  it("reads again after a change to that user's list, and only theirs", async () => {
    const hand = handChanges();
    const cache = createDigestListCache({ changes: hand.changes, maxUsers: 10 });
    const first = countedLoad();
    const second = countedLoad();
    await cache.read('u1', first.load);
    await cache.read('u2', second.load);
    hand.change('u1');
    await cache.read('u1', first.load);
    await cache.read('u2', second.load);
    expect([first.calls(), second.calls()]).toEqual([2, 1]);
  });

  it('shares one read between the readers of a user that arrive while it is under way', async () => {
    const { changes } = handChanges();
    const cache = createDigestListCache({ changes, maxUsers: 10 });
    const gate = deferred<DigestSummary[]>();
    let calls = 0;
    const load = () => {
      calls += 1;
      return gate.promise;
    };
    const reads = Array.from({ length: 100 }, () => cache.read('u1', load));
    gate.resolve([]);
    await Promise.all(reads);
    expect(calls).toBe(1);
  });

  it('does not keep a list read while a change to it arrived (the read may predate the commit)', async () => {
    const hand = handChanges();
    const cache = createDigestListCache({ changes: hand.changes, maxUsers: 10 });
    const gate = deferred<DigestSummary[]>();
    const racing = cache.read('u1', () => gate.promise);
    hand.change('u1');
    // A reader after the change does not join the read that started before it.
    const after = countedLoad();
    expect(await cache.read('u1', after.load)).toEqual([{ name: 'read 1' }]);
    gate.resolve([{ name: 'before the change' } as DigestSummary]);
    expect(await racing).toEqual([{ name: 'before the change' }]);
    expect(await cache.read('u1', after.load)).toEqual([{ name: 'read 1' }]);
    expect(after.calls()).toBe(1);
  });

  it('drops every list when notifications may have been missed, and keeps none until they are heard again', async () => {
    const hand = handChanges();
    const cache = createDigestListCache({ changes: hand.changes, maxUsers: 10 });
    const { load, calls } = countedLoad();
    await cache.read('u1', load);
    hand.lose();
    await cache.read('u1', load);
    await cache.read('u1', load);
    expect(calls()).toBe(3);
    hand.listenAgain();
    await cache.read('u1', load);
    await cache.read('u1', load);
    expect(calls()).toBe(4);
  });

  it('keeps at most maxUsers lists, letting the least recently read go first', async () => {
    const { changes } = handChanges();
    const cache = createDigestListCache({ changes, maxUsers: 2 });
    const loads = { a: countedLoad(), b: countedLoad(), c: countedLoad() };
    await cache.read('a', loads.a.load);
    await cache.read('b', loads.b.load);
    await cache.read('a', loads.a.load);
    await cache.read('c', loads.c.load);
    await cache.read('a', loads.a.load);
    await cache.read('b', loads.b.load);
    expect([loads.a.calls(), loads.b.calls(), loads.c.calls()]).toEqual([1, 2, 1]);
  });

  it('reads every list from the database with maxUsers 0 (DIGEST_LIST_CACHE_USERS=0)', async () => {
    const { changes } = handChanges();
    const cache = createDigestListCache({ changes, maxUsers: 0 });
    const { load, calls } = countedLoad();
    await cache.read('u1', load);
    await cache.read('u1', load);
    expect(calls()).toBe(2);
  });

  it('forgets nothing it did not keep when a read fails, and reads again next time', async () => {
    const { changes } = handChanges();
    const cache = createDigestListCache({ changes, maxUsers: 10 });
    await expect(cache.read('u1', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    const { load, calls } = countedLoad();
    await cache.read('u1', load);
    expect(calls()).toBe(1);
  });
});

describe('GET /api/digests answers every change the next time, through the database triggers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  const api = callerOf(() => t.app);

  async function list(user: TestUser) {
    const response = await api(user, 'GET', '/api/digests');
    expect(response.statusCode).toBe(200);
    return digestListResponseSchema.parse(response.json()).digests;
  }

  /** Renames a digest with the triggers off (as no program of ours writes): no notification at all. */
  async function renameUnannounced(digestId: string, name: string) {
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(digests).set({ name }).where(eq(digests.digestId, digestId));
    });
  }

  /**
   * A user with one digest whose list this process keeps: listening starts at the first read and on
   * PostgreSQL takes a connection of its own, so the lists read until then are not kept.
   */
  async function userWithKeptList() {
    const user = await signUp(t);
    const digest = await createDigest(t.app, user, {
      name: 'Morning',
      subscribers: [`${randomUUID()}@example.com`],
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [before] = await list(user);
      await renameUnannounced(digest.digestId, `unannounced ${randomUUID()}`);
      const [after] = await list(user);
      if (after?.name === before?.name) break;
      if (Date.now() > deadline) throw new Error('the digest list was never kept');
    }
    return { user, digestId: digest.digestId };
  }

  it('answers a list read again from memory while nothing was announced (so the rules below are tested)', async () => {
    const { user, digestId } = await userWithKeptList();
    const [kept] = await list(user);
    await renameUnannounced(digestId, 'not announced');
    expect((await list(user))[0]?.name).toBe(kept?.name);
  });

  it('shows a digest renamed through the API at once', async () => {
    const { user, digestId } = await userWithKeptList();
    const response = await api(user, 'PATCH', `/api/digests/${digestId}`, { name: 'Evening' });
    expect(response.statusCode).toBe(200);
    expect((await list(user))[0]?.name).toBe('Evening');
  });

  it('shows a new digest and forgets a deleted one at once', async () => {
    const { user, digestId } = await userWithKeptList();
    const added = await createDigest(t.app, user, { name: 'Added' });
    expect((await list(user)).map((digest) => digest.digestId)).toEqual([added.digestId, digestId]);
    expect((await api(user, 'DELETE', `/api/digests/${added.digestId}`)).statusCode).toBe(200);
    expect((await list(user)).map((digest) => digest.digestId)).toEqual([digestId]);
  });

  it('shows an issue built by a worker (a new digest_builds row) at once', async () => {
    const { user, digestId } = await userWithKeptList();
    await t.database.db
      .insert(digestBuilds)
      .values({ digestId, buildNumber: 1, html: '<p>issue</p>', text: 'issue' });
    expect((await list(user))[0]?.latestBuildNumber).toBe(1);
  });

  it("shows a friend's subscription ended outside the API at once (the card's count)", async () => {
    const { user, digestId } = await userWithKeptList();
    expect((await list(user))[0]?.subscriberCount).toBe(1);
    await t.database.db
      .update(digestSubscribers)
      .set({ status: 'unsubscribed' })
      .where(eq(digestSubscribers.digestId, digestId));
    expect((await list(user))[0]?.subscriberCount).toBe(0);
  });

  it("shows the owner's new time zone at once", async () => {
    const { user } = await userWithKeptList();
    await t.database.db.update(users).set({ timezone: 'Asia/Tokyo' }).where(eq(users.userId, user.userId));
    expect((await list(user))[0]?.timeZone).toBe('Asia/Tokyo');
  });

  it("does not tell one user's change to another's list", async () => {
    const first = await userWithKeptList();
    const second = await userWithKeptList();
    const [kept] = await list(second.user);
    await api(first.user, 'PATCH', `/api/digests/${first.digestId}`, { name: 'Changed' });
    // Had the first user's change dropped the second's list, this unannounced rename would show.
    await renameUnannounced(second.digestId, 'not announced');
    expect((await list(second.user))[0]?.name).toBe(kept?.name);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'shows a change committed by another process (another connection) within moments',
    async () => {
      const { user, digestId } = await userWithKeptList();
      if (t.database.kind !== 'postgres') throw new Error('PostgreSQL only');
      const other = new pg.Client({ connectionString: t.database.connectionString });
      await other.connect();
      try {
        await other.query('update digests set name = $1 where digest_id = $2', ['From elsewhere', digestId]);
      } finally {
        await other.end();
      }
      const deadline = Date.now() + 2_000;
      while ((await list(user))[0]?.name !== 'From elsewhere') {
        if (Date.now() > deadline) throw new Error('the change was not heard within 2 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  );
});
