import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socialIdentities, users } from '#server/db/schema';
import { isUniqueViolation } from '#server/db/unique-violation';
import { insertPasswordReset } from '#server/modules/auth/auth.repository';
import { hashToken } from '#server/platform/crypto';
import { refreshTokenOf, refreshWithCookie } from '#server-test/session-cookies';
import { solidImage } from './sample-images';
import {
  MAIL_DOMAIN,
  multipart,
  PASSWORD,
  signIn,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './test-support';
import { insertUser, updateUser } from './users.repository';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const NEW_PASSWORD = 'a new passw0rd!';

async function row(userId: string) {
  const [found] = await t.database.db.select().from(users).where(eq(users.userId, userId));
  return found;
}

function me(user: Pick<TestUser, 'headers'>) {
  return t.app.inject({ method: 'GET', url: '/api/users/me', headers: user.headers });
}

function patchMe(user: Pick<TestUser, 'headers'>, payload: unknown) {
  return t.app.inject({
    method: 'PATCH',
    url: '/api/users/me',
    headers: user.headers,
    payload: payload as object,
  });
}

/** Deletes the account with its password (the current one unless told). */
function deleteMe(user: Pick<TestUser, 'headers'>, password = PASSWORD) {
  return t.app.inject({
    method: 'DELETE',
    url: '/api/users/me',
    headers: user.headers,
    payload: { password },
  });
}

function changePassword(user: Pick<TestUser, 'headers'>, payload: unknown) {
  return t.app.inject({
    method: 'PATCH',
    url: '/api/users/me/password',
    headers: user.headers,
    payload: payload as object,
  });
}

/** A Google account (no password), signed in through a session made directly. */
async function socialUser() {
  const user = await insertUser(t.database.db, {
    email: `${randomUUID()}@gmail.test`,
    method: 'google',
    confirmed: true,
  });
  await t.database.db
    .insert(socialIdentities)
    .values({ provider: 'google', subject: randomUUID(), userId: user.userId, email: user.email });
  const token = await t.sessionFor(user.userId);
  return {
    userId: user.userId,
    email: user.email,
    headers: { authorization: `Bearer ${token.accessToken}`, 'x-forwarded-for': '192.0.2.77' },
  };
}

describe('GET /api/users/me', () => {
  it("answers the signed-in user's profile, never the password hash", async () => {
    const user = await signUp(t);
    const response = await me(user);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({
      userId: user.userId,
      email: user.email,
      method: 'email',
      fullName: null,
      username: null,
      bio: null,
      photo: null,
      timezone: null,
      newsletterEmail: null,
    });
    expect(Object.keys(body)).toEqual(['user']);
    expect(response.body).not.toMatch(/argon2|passwordHash|password_hash/);
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await t.app.inject('/api/users/me')).statusCode).toBe(401);
    const bad = await me({ headers: { authorization: 'Bearer not.a.token' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });
});

describe('PATCH /api/users/me saves the fields that changed', () => {
  it('saves full name, username, bio and timezone (to its three columns)', async () => {
    const user = await signUp(t);
    const before = await row(user.userId);
    const response = await patchMe(user, {
      fullName: '  Zażółć Gęślą ',
      username: 'AdaLovelace1',
      bio: '  Counts things.  ',
      timezone: { timezone: 'Europe/Warsaw', locale: 'pl-PL', offset: 60 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      fullName: 'Zażółć Gęślą',
      username: 'AdaLovelace1',
      bio: 'Counts things.',
      timezone: { timezone: 'Europe/Warsaw', locale: 'pl-PL', offset: 60 },
      newsletterEmail: `adalovelace1@${MAIL_DOMAIN}`,
    });
    const after = await row(user.userId);
    expect(after).toMatchObject({
      fullName: 'Zażółć Gęślą',
      username: 'AdaLovelace1',
      bio: 'Counts things.',
      timezone: 'Europe/Warsaw',
      locale: 'pl-PL',
      timezoneOffset: 60,
      email: before?.email,
    });
    expect(after?.updatedAt.getTime()).toBeGreaterThan(
      before?.updatedAt.getTime() ?? Number.POSITIVE_INFINITY,
    );
  });

  it('leaves the fields that were not sent as they were', async () => {
    const user = await signUp(t);
    await patchMe(user, { fullName: 'Ada Lovelace', username: `ada${Date.now()}` });
    const before = await row(user.userId);
    expect((await patchMe(user, { bio: 'Hello' })).statusCode).toBe(200);
    const after = await row(user.userId);
    expect(after).toMatchObject({ fullName: 'Ada Lovelace', username: before?.username, bio: 'Hello' });
  });

  it('clears the bio when it is sent empty (or only spaces)', async () => {
    const user = await signUp(t);
    await patchMe(user, { bio: 'Something' });
    const response = await patchMe(user, { bio: '   ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.bio).toBeNull();
    expect((await row(user.userId))?.bio).toBeNull();
  });

  it('lets a user change the case of their own username', async () => {
    const user = await signUp(t);
    const name = `grace${Date.now()}`;
    expect((await patchMe(user, { username: name })).statusCode).toBe(200);
    const response = await patchMe(user, { username: name.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect((await row(user.userId))?.username).toBe(name.toUpperCase());
  });

  it('does not take the e-mail: it changes only through POST /api/users/me/email, with the password', async () => {
    const user = await signUp(t);
    const before = await row(user.userId);
    const response = await patchMe(user, { email: `${randomUUID()}@example.com` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await row(user.userId)).toEqual(before);
  });
});

describe('PATCH /api/users/me refuses bad input and changes nothing', () => {
  let user: TestUser;
  let other: TestUser;
  let otherUsername: string;
  beforeAll(async () => {
    user = await signUp(t);
    other = await signUp(t);
    otherUsername = `Taken${Date.now()}`;
    expect((await patchMe(other, { username: otherUsername })).statusCode).toBe(200);
    expect(
      (await patchMe(user, { fullName: 'Ada Lovelace', username: `mine${Date.now()}`, bio: 'b' })).statusCode,
    ).toBe(200);
  });

  async function expectRefused(
    payload: unknown,
    status: number,
    body: { code: string; message?: string | RegExp },
  ) {
    const before = await row(user.userId);
    const response = await patchMe(user, payload);
    expect(response.statusCode).toBe(status);
    const { message, ...rest } = body;
    expect(response.json()).toMatchObject(rest);
    if (message instanceof RegExp) expect(response.json().message).toMatch(message);
    else if (message) expect(response.json().message).toBe(message);
    expect(await row(user.userId)).toEqual(before);
  }

  it('an empty body', async () => {
    await expectRefused({}, 400, { code: 'NOTHING_TO_CHANGE', message: 'Nothing to change' });
  });

  it('a field that is not part of the profile', async () => {
    await expectRefused({ bio: 'x', userId: other.userId }, 400, { code: 'VALIDATION_ERROR' });
    await expectRefused({ method: 'google' }, 400, { code: 'VALIDATION_ERROR' });
    await expectRefused({ confirmed: true }, 400, { code: 'VALIDATION_ERROR' });
    await expectRefused({ passwordHash: 'x' }, 400, { code: 'VALIDATION_ERROR' });
    await expectRefused({ photoId: randomUUID() }, 400, { code: 'VALIDATION_ERROR' });
  });

  it('a username with other characters than letters and digits', async () => {
    for (const username of ['ada_lovelace', 'ada lovelace', 'adą', 'a@b']) {
      await expectRefused({ username }, 400, {
        code: 'VALIDATION_ERROR',
        message: 'body.username: Username must contain only letters and numbers.',
      });
    }
    await expectRefused({ username: '' }, 400, {
      code: 'VALIDATION_ERROR',
      message: 'body.username: This field is required.',
    });
  });

  it('a full name with other characters than letters and spaces', async () => {
    await expectRefused({ fullName: 'R2D2' }, 400, {
      code: 'VALIDATION_ERROR',
      message: 'body.fullName: Name must contain only letters',
    });
  });

  it('a time zone that does not exist, or an offset out of range', async () => {
    await expectRefused({ timezone: { timezone: 'Mars/Olympus', locale: 'en-US', offset: 0 } }, 400, {
      code: 'VALIDATION_ERROR',
      message: /body\.timezone\.timezone: Choose a time zone from the list/,
    });
    await expectRefused({ timezone: { timezone: 'UTC', locale: 'en-US', offset: 99999 } }, 400, {
      code: 'VALIDATION_ERROR',
      message: /^body\.timezone\.offset: /,
    });
  });

  it('a bio over 500 characters', async () => {
    await expectRefused({ bio: 'x'.repeat(501) }, 400, {
      code: 'VALIDATION_ERROR',
      message: 'body.bio: Bio should have at most 500 characters',
    });
  });

  it("another user's username, in any case: 409", async () => {
    for (const username of [otherUsername, otherUsername.toLowerCase(), otherUsername.toUpperCase()]) {
      await expectRefused({ username, bio: 'changed' }, 409, {
        code: 'USERNAME_TAKEN',
        message: 'This username is already taken.',
      });
    }
  });

  it("another account's e-mail, asked for through POST /api/users/me/email: 409", async () => {
    const before = await row(user.userId);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/email',
      headers: user.headers,
      payload: { email: other.email.toUpperCase(), password: PASSWORD },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'EMAIL_TAKEN',
      message: 'An account with this e-mail already exists.',
    });
    expect(await row(user.userId)).toEqual(before);
  });
});

describe('usernames stay unique when two requests race', () => {
  it('gives the name to one of two users asking at once; the other gets 409', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const username = `Race${Date.now()}`;
    const responses = await Promise.all([
      patchMe(a, { username }),
      patchMe(b, { username: username.toLowerCase() }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const loser = responses.find((response) => response.statusCode === 409);
    expect(loser?.json()).toEqual({ message: 'This username is already taken.', code: 'USERNAME_TAKEN' });
  });

  it('recognises the unique index violation that a lost race raises', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const username = `Index${Date.now()}`;
    await updateUser(t.database.db, a.userId, { username, updatedAt: new Date() });
    const error = await updateUser(t.database.db, b.userId, {
      username: username.toLowerCase(),
      updatedAt: new Date(),
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error, 'users_username_lower_unique')).toBe(true);
    expect(isUniqueViolation(error, 'users_email_unique')).toBe(false);
    const emailError = await updateUser(t.database.db, b.userId, {
      email: a.email,
      updatedAt: new Date(),
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(emailError, 'users_email_unique')).toBe(true);
  });
});

describe('social accounts own neither their e-mail nor a password', () => {
  it('refuses an e-mail change with 403 but saves other fields', async () => {
    const user = await socialUser();
    const before = await row(user.userId);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/email',
      headers: user.headers,
      payload: { email: `${randomUUID()}@example.com`, password: 'whatever1!' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'EMAIL_CHANGE_NOT_ALLOWED' });
    expect(await row(user.userId)).toEqual(before);
    const allowed = await patchMe(user, { bio: 'hi' });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().user).toMatchObject({ method: 'google', bio: 'hi', email: user.email });
  });

  it('refuses a password change with 403', async () => {
    const user = await socialUser();
    const before = await row(user.userId);
    const response = await changePassword(user, { oldPassword: 'whatever1!', newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'PASSWORD_CHANGE_NOT_ALLOWED' });
    expect(await row(user.userId)).toEqual(before);
  });
});

describe('PATCH /api/users/me/password', () => {
  it('changes the password and ends every other session, keeping this one', async () => {
    const user = await signUp(t);
    const signedIn = await signIn(t.app, user);
    const otherDevice = { ...signedIn.json().token, refreshToken: refreshTokenOf(signedIn) };
    const bystander = await signUp(t);
    const response = await changePassword(user, { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your password has been changed.' });

    expect((await me(user)).statusCode).toBe(200);
    const revoked = await me({ headers: { authorization: `Bearer ${otherDevice.accessToken}` } });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ message: 'Token revoked!', code: 'TOKEN_REVOKED' });
    const refreshed = await refreshWithCookie(t.app, otherDevice.refreshToken);
    expect(refreshed.statusCode).toBe(401);
    // This device's refresh token still works.
    const ownRefresh = await refreshWithCookie(t.app, user.refreshToken);
    expect(ownRefresh.statusCode).toBe(200);

    expect((await signIn(t.app, user, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t.app, user, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await me(bystander)).statusCode).toBe(200);
  });

  it('makes outstanding reset links stop working', async () => {
    const user = await signUp(t);
    const recoveryToken = `reset-${randomUUID()}`;
    await insertPasswordReset(t.database.db, {
      userId: user.userId,
      tokenHash: hashToken(recoveryToken),
      expiresAt: new Date(Date.now() + 600_000),
    });
    expect(
      (await changePassword(user, { oldPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode,
    ).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/recover',
      headers: { 'x-forwarded-for': user.ip },
      payload: { recoveryToken, password: 'someone else 1!' },
    });
    expect(reset.statusCode).toBe(400);
    expect((await signIn(t.app, user, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const user = await signUp(t);
    const otherDevice = (await signIn(t.app, user)).json().token;
    const before = await row(user.userId);
    const response = await changePassword(user, {
      oldPassword: 'not my password 1!',
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Current password is incorrect.', code: 'WRONG_PASSWORD' });
    expect(await row(user.userId)).toEqual(before);
    expect((await me({ headers: { authorization: `Bearer ${otherDevice.accessToken}` } })).statusCode).toBe(
      200,
    );
    expect((await signIn(t.app, user, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a new password that could not be used to log in, and bad bodies', async () => {
    const user = await signUp(t);
    const before = await row(user.userId);
    for (const [payload, message] of [
      [
        { oldPassword: PASSWORD, newPassword: 'short1!' },
        /body\.newPassword: Password should have at least 8 characters/,
      ],
      [
        { oldPassword: PASSWORD, newPassword: 'onlyletters' },
        /body\.newPassword: Password should be at least 8 characters with one letter, one number, and one symbol\./,
      ],
      [{ oldPassword: '', newPassword: NEW_PASSWORD }, /body\.oldPassword: /],
      [{ newPassword: NEW_PASSWORD }, /body\.oldPassword: /],
      [{ oldPassword: PASSWORD, newPassword: NEW_PASSWORD, userId: randomUUID() }, /body: /],
    ] as const) {
      const response = await changePassword(user, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(response.json().message).toMatch(message);
    }
    expect(await row(user.userId)).toEqual(before);
  });

  it('accepts a long password (64+ characters)', async () => {
    const user = await signUp(t);
    const long = `${'long passphrase '.repeat(5)}9!`;
    expect(long.length).toBeGreaterThan(64);
    expect((await changePassword(user, { oldPassword: PASSWORD, newPassword: long })).statusCode).toBe(200);
    expect((await signIn(t.app, user, long)).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    const response = await changePassword(
      { headers: {} },
      { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    );
    expect(response.statusCode).toBe(401);
  });

  it('is rate limited per account: the 11th attempt in 15 minutes gets 429 with Retry-After', async () => {
    const user = await signUp(t);
    for (let attempt = 1; attempt <= 10; attempt++) {
      // A new client address each time: the per-account limit is what stops this.
      const response = await changePassword(
        { headers: { ...user.headers, 'x-forwarded-for': `203.0.113.${attempt}` } },
        { oldPassword: `guess number ${attempt}!`, newPassword: NEW_PASSWORD },
      );
      expect(response.statusCode).toBe(400);
    }
    const limited = await changePassword(
      { headers: { ...user.headers, 'x-forwarded-for': '203.0.113.99' } },
      { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(t.app, user, PASSWORD)).statusCode).toBe(200);
    // Another account is not held back by it.
    const other = await signUp(t);
    expect(
      (await changePassword(other, { oldPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode,
    ).toBe(200);
  });
});

/** Rows per table that belong to the user: every table with a foreign key to users, and users itself. */
async function rowsOf(userId: string) {
  type Rows<T> = { rows: T[] };
  const references = (await t.database.db.execute(sql`
    select distinct cl.relname as table_name, a.attname as column_name
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.confrelid = 'public.users'::regclass
    order by 1, 2`)) as unknown as Rows<{ table_name: string; column_name: string }>;
  const counts: Record<string, number> = {};
  for (const { table_name, column_name } of [
    { table_name: 'users', column_name: 'user_id' },
    ...references.rows,
  ]) {
    const result = (await t.database.db.execute(
      sql`select count(*)::int as count from ${sql.identifier(table_name)} where ${sql.identifier(column_name)} = ${userId}`,
    )) as unknown as Rows<{ count: number }>;
    counts[table_name] = Number(result.rows[0]?.count);
  }
  return counts;
}

describe('DELETE /api/users/me', () => {
  it('deletes every row that belongs to the account and none of anyone else', async () => {
    const user = await signUp(t);
    await signIn(t.app, user);
    const other = await signUp(t);
    for (const owner of [user, other]) {
      const body = multipart([
        {
          field: 'image',
          filename: 'a.png',
          contentType: 'image/png',
          content: await solidImage('png', 200, 200),
        },
      ]);
      const uploaded = await t.app.inject({
        method: 'PATCH',
        url: '/api/users/me/photo',
        headers: { ...owner.headers, ...body.headers },
        payload: body.payload,
      });
      expect(uploaded.statusCode).toBe(200);
      await insertPasswordReset(t.database.db, {
        userId: owner.userId,
        tokenHash: hashToken(randomUUID()),
        expiresAt: new Date(Date.now() + 600_000),
      });
      await t.database.db
        .insert(socialIdentities)
        .values({ provider: 'facebook', subject: randomUUID(), userId: owner.userId, email: owner.email });
    }
    const photo = (await row(user.userId))?.photoId;

    const before = await rowsOf(user.userId);
    const otherBefore = await rowsOf(other.userId);
    expect(Object.keys(before).sort()).toEqual(
      expect.arrayContaining([
        'password_resets',
        'refresh_tokens',
        'sessions',
        'social_identities',
        'user_photos',
        'users',
      ]),
    );
    expect(before).toMatchObject({
      users: 1,
      sessions: 2,
      refresh_tokens: 2,
      password_resets: 1,
      social_identities: 1,
      user_photos: 1,
    });

    const response = await deleteMe(user);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your account has been deleted.' });

    const after = await rowsOf(user.userId);
    expect(Object.values(after).every((count) => count === 0)).toBe(true);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(await rowsOf(other.userId)).toEqual(otherBefore);
    expect((await me(other)).statusCode).toBe(200);

    expect((await me(user)).statusCode).toBe(401);
    expect((await signIn(t.app, user)).statusCode).toBe(401);
    expect((await t.app.inject(`/api/photos/${photo}`)).statusCode).toBe(404);
    const refresh = await refreshWithCookie(t.app, user.refreshToken);
    expect(refresh.statusCode).toBe(401);
  });

  it('leaves the e-mail free for a new account', async () => {
    const user = await signUp(t);
    expect((await deleteMe(user)).statusCode).toBe(200);
    const again = await signUp(t, user.email);
    expect(again.userId).not.toBe(user.userId);
  });

  it('needs a token', async () => {
    const anonymous = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      payload: { password: PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("a user's token only ever touches that user", () => {
  it("A's calls read and change A; B's profile, photo and sessions stay as they were", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const bSecondDevice = (await signIn(t.app, b)).json().token;
    expect((await patchMe(b, { fullName: 'Bea Bee', bio: 'b' })).statusCode).toBe(200);
    const bBefore = await row(b.userId);
    const bRowsBefore = await rowsOf(b.userId);

    const read = await me(a);
    expect(read.json().user.userId).toBe(a.userId);
    expect(read.json().user.email).toBe(a.email);
    expect((await patchMe(a, { fullName: 'Ann Ay', bio: 'a' })).json().user.userId).toBe(a.userId);
    expect((await patchMe(a, { userId: b.userId, bio: 'x' })).statusCode).toBe(400);
    const body = multipart([
      {
        field: 'image',
        filename: 'a.png',
        contentType: 'image/png',
        content: await solidImage('png', 200, 200),
      },
    ]);
    const uploaded = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/photo',
      headers: { ...a.headers, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.json().user.userId).toBe(a.userId);
    expect((await changePassword(a, { oldPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(
      200,
    );
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/users/me/photo', headers: a.headers })).statusCode,
    ).toBe(200);
    expect((await deleteMe(a, NEW_PASSWORD)).statusCode).toBe(200);

    expect(await row(b.userId)).toEqual(bBefore);
    expect(await rowsOf(b.userId)).toEqual(bRowsBefore);
    expect((await me(b)).statusCode).toBe(200);
    expect((await me({ headers: { authorization: `Bearer ${bSecondDevice.accessToken}` } })).statusCode).toBe(
      200,
    );
    expect((await signIn(t.app, b, PASSWORD)).statusCode).toBe(200);
  });
});

describe('API documentation', () => {
  it('documents the users routes under the users tag with bearer security', async () => {
    const document = (await t.app.inject('/api/openapi.json')).json();
    const operations = [
      ['/api/users/me', 'get'],
      ['/api/users/me', 'patch'],
      ['/api/users/me', 'delete'],
      ['/api/users/me/password', 'patch'],
      ['/api/users/me/photo', 'patch'],
      ['/api/users/me/photo', 'delete'],
    ] as const;
    for (const [path, method] of operations) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags).toEqual(['users']);
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
    const photo = document.paths['/api/photos/{photoId}']?.get;
    expect(photo.tags).toEqual(['users']);
    expect(photo.security).toBeUndefined();
  });
});
