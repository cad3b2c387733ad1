import { USERNAME_RESERVATION_DAYS } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releasedUsernames, users } from '#server/db/schema';
import { PASSWORD, signUp, startTestApp, type TestApp, type TestUser } from './test-support';
import { USERS_RATE_LIMITS } from './users.routes';

// docs/product.md §4 Profile edit: a username its owner gave up stays theirs for 30 days.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const TAKEN = { message: 'This username is already taken.', code: 'USERNAME_TAKEN' };
const DAY_MS = 24 * 60 * 60 * 1000;

let counter = 0;
/** A name no other test uses. */
const freshName = (prefix: string) => `${prefix}${Date.now()}${++counter}`;

function patchMe(user: Pick<TestUser, 'headers'>, payload: object) {
  return t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: user.headers, payload });
}

async function usernameOf(userId: string) {
  const [row] = await t.database.db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.userId, userId));
  return row?.username;
}

async function reservationOf(name: string) {
  const [row] = await t.database.db
    .select()
    .from(releasedUsernames)
    .where(eq(releasedUsernames.usernameLower, name.toLowerCase()));
  return row;
}

/** Dates the reservation of `name` as released `ms` ago. */
async function moveReleaseBack(name: string, ms: number) {
  await t.database.db
    .update(releasedUsernames)
    .set({ releasedAt: new Date(Date.now() - ms) })
    .where(eq(releasedUsernames.usernameLower, name.toLowerCase()));
}

/** A signed-up user holding `name`, then `next`: `name` is released. */
async function userWhoGaveUp(name: string, next = freshName('Next')) {
  const user = await signUp(t);
  expect((await patchMe(user, { username: name })).statusCode).toBe(200);
  expect((await patchMe(user, { username: next })).statusCode).toBe(200);
  return user;
}

describe('a username given up stays reserved for its owner for 30 days', () => {
  it('refuses it to another user, in any case, with the message of a taken name, and changes nothing', async () => {
    const name = freshName('Old');
    const owner = await userWhoGaveUp(name);
    expect(await reservationOf(name)).toMatchObject({ userId: owner.userId });
    const other = await signUp(t);
    const otherName = freshName('Mine');
    expect((await patchMe(other, { username: otherName })).statusCode).toBe(200);

    for (const username of [name, name.toLowerCase(), name.toUpperCase()]) {
      const response = await patchMe(other, { username, bio: 'changed' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(TAKEN);
    }
    expect(await usernameOf(other.userId)).toBe(otherName);
    const [otherRow] = await t.database.db.select().from(users).where(eq(users.userId, other.userId));
    expect(otherRow?.bio).toBeNull();
    expect(await reservationOf(name)).toMatchObject({ userId: owner.userId });
  });

  it('refuses it to a new user finishing the onboarding as well', async () => {
    const name = freshName('Onboard');
    await userWhoGaveUp(name);
    const newcomer = await signUp(t);
    const response = await patchMe(newcomer, { fullName: 'New Comer', username: name });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual(TAKEN);
    expect(await usernameOf(newcomer.userId)).toBeNull();
  });

  it('lets the owner take it back, which ends its reservation and reserves the name they leave', async () => {
    const name = freshName('Back');
    const between = freshName('Between');
    const owner = await userWhoGaveUp(name, between);
    const response = await patchMe(owner, { username: name.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      username: name.toUpperCase(),
      newsletterEmail: `${name.toLowerCase()}@digest.test`,
    });
    expect(await reservationOf(name)).toBeUndefined();
    expect(await reservationOf(between)).toMatchObject({ userId: owner.userId });
  });

  it('reserves nothing when only the case of the name changes', async () => {
    const user = await signUp(t);
    const name = freshName('case');
    expect((await patchMe(user, { username: name })).statusCode).toBe(200);
    expect((await patchMe(user, { username: name.toUpperCase() })).statusCode).toBe(200);
    expect(await reservationOf(name)).toBeUndefined();
  });

  it(`frees the name once the reservation is older than ${USERNAME_RESERVATION_DAYS} days`, async () => {
    const name = freshName('Expired');
    await userWhoGaveUp(name);
    await moveReleaseBack(name, USERNAME_RESERVATION_DAYS * DAY_MS + 60_000);
    const other = await signUp(t);
    expect((await patchMe(other, { username: name })).statusCode).toBe(200);
    expect(await usernameOf(other.userId)).toBe(name);
    expect(await reservationOf(name)).toBeUndefined();
  });

  it('still holds the name a day before the reservation ends', async () => {
    const name = freshName('Held');
    await userWhoGaveUp(name);
    await moveReleaseBack(name, (USERNAME_RESERVATION_DAYS - 1) * DAY_MS);
    const other = await signUp(t);
    expect((await patchMe(other, { username: name })).statusCode).toBe(409);
  });

  it('ends with the account: a deleted user holds no name back', async () => {
    const name = freshName('Gone');
    const owner = await userWhoGaveUp(name);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: owner.headers,
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await reservationOf(name)).toBeUndefined();
  });

  it('needs a token: 401, and nothing is released', async () => {
    const name = freshName('Anon');
    const owner = await signUp(t);
    expect((await patchMe(owner, { username: name })).statusCode).toBe(200);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      payload: { username: freshName('Other') },
    });
    expect(response.statusCode).toBe(401);
    expect(await usernameOf(owner.userId)).toBe(name);
    expect(await reservationOf(name)).toBeUndefined();
  });
});

describe('username changes are rate limited per account', () => {
  it(`the ${USERS_RATE_LIMITS.usernamePerUser.max + 1}th in a day gets 429 with Retry-After; other profile fields stay open`, async () => {
    const user = await signUp(t);
    for (let change = 0; change < USERS_RATE_LIMITS.usernamePerUser.max; change++) {
      expect((await patchMe(user, { username: freshName('Many') })).statusCode).toBe(200);
    }
    const before = await usernameOf(user.userId);
    const limited = await patchMe(user, { username: freshName('OneMore') });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(await usernameOf(user.userId)).toBe(before);
    expect((await patchMe(user, { bio: 'still editable' })).statusCode).toBe(200);

    // Another account is not limited by this one.
    const other = await signUp(t);
    expect((await patchMe(other, { username: freshName('Free') })).statusCode).toBe(200);
  });
});
