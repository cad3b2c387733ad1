import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { revokeSession, revokeUserSessions } from './auth.repository';
import { createSessionCheck } from './session-check';

const clock = testClock();
let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ clock });
});
afterAll(async () => {
  await t?.close();
});

/** A new user's session: its id, the user's, and a check of its own with a one-second memory. */
async function session() {
  const user = await signUp(t);
  const { accessToken } = await t.sessionFor(user.userId);
  const { sessionId } = await t.modules.authDeps.accessTokens.verify(accessToken);
  return { sessionId, userId: user.userId, check: createSessionCheck({ db: t.database.db, ttlMs: 1000 }) };
}

describe('the session check remembers a standing session for SESSION_CHECK_CACHE_MS', () => {
  it('refuses a session ended through another process once the memory is older than the bound', async () => {
    const { sessionId, userId, check } = await session();
    expect(await check.isActive(sessionId, userId, clock.now())).toBe(true);
    // Another process ends it: this one is not told, and answers from memory until the bound.
    await revokeUserSessions(t.database.db, userId, clock.now());
    clock.advance(999);
    expect(await check.isActive(sessionId, userId, clock.now())).toBe(true);
    clock.advance(1);
    expect(await check.isActive(sessionId, userId, clock.now())).toBe(false);
  });

  it('refuses at once a session this process ended (one, or all of a user)', async () => {
    const one = await session();
    expect(await one.check.isActive(one.sessionId, one.userId, clock.now())).toBe(true);
    await revokeSession(t.database.db, one.sessionId, clock.now());
    one.check.forgetSession(one.sessionId);
    expect(await one.check.isActive(one.sessionId, one.userId, clock.now())).toBe(false);

    const all = await session();
    expect(await all.check.isActive(all.sessionId, all.userId, clock.now())).toBe(true);
    await revokeUserSessions(t.database.db, all.userId, clock.now());
    all.check.forgetUser(all.userId);
    expect(await all.check.isActive(all.sessionId, all.userId, clock.now())).toBe(false);
  });

  it('does not keep an answer read before a revocation this process was told of', async () => {
    const { sessionId, userId, check } = await session();
    const asked = check.isActive(sessionId, userId, clock.now());
    // The revocation commits and is announced while the check's query is under way.
    check.forgetUser(userId);
    expect(await asked).toBe(true);
    await revokeUserSessions(t.database.db, userId, clock.now());
    expect(await check.isActive(sessionId, userId, clock.now())).toBe(false);
  });

  it('never answers from memory for another user, an expired session, or with the memory off', async () => {
    const { sessionId, userId, check } = await session();
    expect(await check.isActive(sessionId, userId, clock.now())).toBe(true);
    const other = await signUp(t);
    expect(await check.isActive(sessionId, other.userId, clock.now())).toBe(false);

    const uncached = createSessionCheck({ db: t.database.db, ttlMs: 0 });
    expect(await uncached.isActive(sessionId, userId, clock.now())).toBe(true);
    await revokeUserSessions(t.database.db, userId, clock.now());
    expect(await uncached.isActive(sessionId, userId, clock.now())).toBe(false);

    const fresh = await session();
    expect(await fresh.check.isActive(fresh.sessionId, fresh.userId, clock.now())).toBe(true);
    clock.advance(31 * 24 * 60 * 60_000); // past the session's 30 days
    expect(await fresh.check.isActive(fresh.sessionId, fresh.userId, clock.now())).toBe(false);
  });
});
