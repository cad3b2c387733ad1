import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SIGN_UP_MESSAGE } from '@digest/contracts';
import { SignJWT } from 'jose';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { passwordResets, sessions, users } from '#server/db/schema';
import { deriveKey } from '#server/platform/crypto';
import { cookieValueOf, refreshTokenOf, refreshWithCookie, setCookieOf } from '#server-test/session-cookies';
import { type HttpServer, startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { RATE_LIMITS, RECOVERY_MESSAGE } from './auth.routes';
import { PASSWORD_RESET_TTL_MS, REFRESH_REUSE_GRACE_MS, REFRESH_TOKEN_TTL_MS } from './auth.usecases';
import { REFRESH_COOKIE } from './session-cookie';

const clock = testClock(new Date());

let api: TestApi;
let app: HttpServer;
let database: DatabaseHandle;
let outbox: string;
let clientIp = 0;

beforeAll(async () => {
  api = await startTestApi({ clock, roles: ['worker'] });
  ({ app, database, outboxDir: outbox } = api);
});

afterAll(async () => {
  await api.close();
});

/** Each call comes from its own client address unless one is given, so per-IP limits stay out of the way. */
function call(
  method: 'GET' | 'POST',
  url: string,
  options: { body?: object; token?: string; ip?: string } = {},
) {
  clientIp += 1;
  return app.inject({
    method,
    url,
    headers: {
      'x-forwarded-for': options.ip ?? `198.51.${Math.floor(clientIp / 250)}.${clientIp % 250}`,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body ? { payload: options.body } : {}),
  });
}

let userCounter = 0;
async function signUp(password = 'Passw0rd!') {
  userCounter += 1;
  const email = `user${userCounter}@example.com`;
  const response = await call('POST', '/api/auth/signup/email', {
    body: { email, password, confirmed: true },
  });
  expect(response.statusCode).toBe(202);
  const verified = await api.followVerificationLink(email);
  expect(verified.statusCode).toBe(200);
  const { token } = verified.json() as { token: { accessToken: string } };
  return { email, password, token: { ...token, refreshToken: refreshTokenOf(verified) } };
}

const countUsers = async () => (await database.db.select().from(users)).length;

describe('sign-up by e-mail', () => {
  it('creates the account unconfirmed, with no session, and stores the e-mail lower-cased', async () => {
    const response = await call('POST', '/api/auth/signup/email', {
      body: { email: '  Grace.Hopper@Example.COM ', password: 'C0bol-forever', confirmed: true },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: SIGN_UP_MESSAGE });
    expect(response.headers['set-cookie']).toBeUndefined();
    const [row] = await database.db.select().from(users);
    expect(row).toMatchObject({ email: 'grace.hopper@example.com', method: 'email', confirmed: false });
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await database.db.select().from(sessions)).toEqual([]);
  });

  it('answers an address that already has an account, whatever its case, exactly as a new one', async () => {
    const before = await countUsers();
    const response = await call('POST', '/api/auth/signup/email', {
      body: { email: 'GRACE.HOPPER@example.com', password: 'Another1!', confirmed: true },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: SIGN_UP_MESSAGE });
    expect(await countUsers()).toBe(before);
  });

  it.each([
    [{ email: 'not-an-email', password: 'Passw0rd!', confirmed: true }, 'Should be a valid email'],
    [{ email: '', password: 'Passw0rd!', confirmed: true }, 'This field is required'],
    [
      { email: 'a@example.com', password: 'password1', confirmed: true },
      'Password should be at least 8 characters with one letter, one number, and one symbol.',
    ],
    [
      { email: 'a@example.com', password: 'Pa1!', confirmed: true },
      'Password should be at least 8 characters with one letter, one number, and one symbol.',
    ],
    [{ email: 'a@example.com', password: 'Passw0rd!', confirmed: false }, 'This field is required'],
    [{ email: 'a@example.com', password: 'Passw0rd!' }, 'This field is required'],
    [{ email: 'a@example.com', password: `${'x'.repeat(1020)}Aa1!!`, confirmed: true }, 'at most 1024'],
  ])('refuses %j with 400 and the rule, creating nothing', async (body, message) => {
    const before = await countUsers();
    const response = await call('POST', '/api/auth/signup/email', { body });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await countUsers()).toBe(before);
  });

  it('accepts a long passphrase (64+ characters) and signs in with it', async () => {
    const password = 'correct horse battery staple 1! '.repeat(3);
    expect(password.length).toBeGreaterThan(64);
    const { email } = await signUp(password);
    const response = await call('POST', '/api/auth/signin/email', { body: { email, password } });
    expect(response.statusCode).toBe(200);
  });
});

describe('sign-in by e-mail', () => {
  it('answers a token pair and the user for the right password', async () => {
    const { email, password } = await signUp();
    const response = await call('POST', '/api/auth/signin/email', {
      body: { email: email.toUpperCase(), password },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(email);
  });

  it('answers the same 401 for a wrong password and for an unknown e-mail', async () => {
    const { email } = await signUp();
    const wrong = await call('POST', '/api/auth/signin/email', { body: { email, password: 'Wr0ng-pass' } });
    const unknown = await call('POST', '/api/auth/signin/email', {
      body: { email: 'nobody@example.com', password: 'Wr0ng-pass' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Wrong e-mail or password.' });
  });
});

describe('access tokens', () => {
  const logoutWith = (token: string) => call('POST', '/api/auth/logout', { token });

  it('refuses a request without a token', async () => {
    const response = await call('POST', '/api/auth/logout');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
  });

  it('refuses a tampered token', async () => {
    const { token } = await signUp();
    const [header, payload, signature] = token.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    const response = await logoutWith(`${header}.${forged}.${signature}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_TOKEN');
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const { token } = await signUp();
    const [, payload] = token.accessToken.split('.');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await logoutWith(`${none}.${payload}.`)).statusCode).toBe(401);
  });

  it('refuses a token signed with another key', async () => {
    const { token } = await signUp();
    const [, payload] = token.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(deriveKey('another-secret-entirely-0123456789abcdef', 'access-token'));
    expect((await logoutWith(foreign)).statusCode).toBe(401);
  });

  it('refuses an expired token with TOKEN_EXPIRED', async () => {
    const { token } = await signUp();
    clock.advance(16 * 60 * 1000);
    try {
      const response = await logoutWith(token.accessToken);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('TOKEN_EXPIRED');
    } finally {
      clock.advance(-16 * 60 * 1000);
    }
  });
});

const refresh = (refreshToken: string) => refreshWithCookie(app, refreshToken);

describe('refresh tokens', () => {
  it('the refresh token is only in an HttpOnly, SameSite=Strict cookie scoped to the refresh path, never in a body', async () => {
    const { email, password } = await signUp();
    const response = await call('POST', '/api/auth/signin/email', { body: { email, password } });
    expect(response.statusCode).toBe(200);
    expect(response.json().token).toEqual({ accessToken: expect.any(String) });
    const refreshToken = refreshTokenOf(response);
    expect(response.body).not.toContain(refreshToken);
    expect(setCookieOf(response, REFRESH_COOKIE)).toBe(
      `${REFRESH_COOKIE}=${refreshToken}; Path=/api/auth/refresh; Max-Age=${REFRESH_TOKEN_TTL_MS / 1000}; HttpOnly; SameSite=Strict`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('over https the cookie is Secure and carries the __Secure- prefix', async () => {
    const secure = await startTestApi({ clock, appUrl: 'https://digest.example' });
    try {
      const account = { email: 'secure@example.com', password: 'Passw0rd!' };
      await secure.app.inject({
        method: 'POST',
        url: '/api/auth/signup/email',
        payload: { ...account, confirmed: true },
      });
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/signin/email',
        payload: account,
      });
      const line = setCookieOf(response, REFRESH_COOKIE) ?? '';
      expect(line).toMatch(/^__Secure-digest_refresh=[\w-]{43}; Path=\/api\/auth\/refresh; .*; Secure$/);
      const renewed = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: {
          'x-digest-session': '1',
          origin: 'https://digest.example',
          cookie: `__Secure-digest_refresh=${refreshTokenOf(response)}`,
        },
      });
      expect(renewed.statusCode).toBe(200);
    } finally {
      await secure.close();
    }
  });

  it('rotates: a refresh answers a new access token and cookie, and the old refresh token stops working', async () => {
    const { token } = await signUp();
    const first = await refresh(token.refreshToken);
    expect(first.statusCode).toBe(200);
    expect(first.json().token).toEqual({ accessToken: expect.any(String) });
    const next = refreshTokenOf(first);
    expect(next).not.toBe(token.refreshToken);
    expect((await refresh(next)).statusCode).toBe(200);
  });

  it('reads the token from the cookie only: one in the body is refused, and is not spent', async () => {
    const { token } = await signUp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { 'x-digest-session': '1' },
      payload: { refreshToken: token.refreshToken },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'NO_SESSION', message: 'Log in to continue.' });
    expect((await refresh(token.refreshToken)).statusCode).toBe(200);
  });

  it('refuses a cross-site request: no app header, or a foreign Origin, gets 403 and spends nothing', async () => {
    const { token } = await signUp();
    const cookie = `${REFRESH_COOKIE}=${token.refreshToken}`;
    const withoutHeader = await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
    expect(withoutHeader.statusCode).toBe(403);
    expect(withoutHeader.json().code).toBe('FOREIGN_REQUEST');
    const foreign = await refreshWithCookie(app, token.refreshToken, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(setCookieOf(foreign, REFRESH_COOKIE)).toBeUndefined();
    // The app's own origin passes, and the token was not spent by the refused calls.
    const own = await refreshWithCookie(app, token.refreshToken, { origin: 'http://app.test' });
    expect(own.statusCode).toBe(200);
  });

  it('a second use within the grace (two tabs at once) gets its own token in the same session', async () => {
    const { token } = await signUp();
    const [first, second] = await Promise.all([refresh(token.refreshToken), refresh(token.refreshToken)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(refreshTokenOf(first)).not.toBe(refreshTokenOf(second));
    expect((await refresh(refreshTokenOf(first))).statusCode).toBe(200);
    expect((await refresh(refreshTokenOf(second))).statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token is presented again after the grace', async () => {
    const { token } = await signUp();
    const rotated = await refresh(token.refreshToken);
    clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const reuse = await refresh(token.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ code: 'TOKEN_REVOKED', message: 'Token revoked!' });
    // The browser is told to forget the refused token.
    expect(cookieValueOf(reuse, REFRESH_COOKIE)).toBe('');
    expect(setCookieOf(reuse, REFRESH_COOKIE)).toContain('Max-Age=0');
    expect((await refresh(refreshTokenOf(rotated))).json().message).toBe('Token revoked!');
    const logout = await call('POST', '/api/auth/logout', { token: rotated.json().token.accessToken });
    expect(logout.json().message).toBe('Token revoked!');
  });

  it('refuses an unknown refresh token, and a request without the cookie', async () => {
    expect((await refresh('a'.repeat(43))).statusCode).toBe(401);
    const none = await refreshWithCookie(app, undefined);
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('NO_SESSION');
  });
});

describe('logout', () => {
  it('ends the session and clears its cookie: its access and refresh tokens stop working, other sessions go on', async () => {
    const { email, password, token } = await signUp();
    const other = refreshTokenOf(await call('POST', '/api/auth/signin/email', { body: { email, password } }));
    const response = await call('POST', '/api/auth/logout', { token: token.accessToken });
    expect(response.statusCode).toBe(200);
    expect(setCookieOf(response, REFRESH_COOKIE)).toBe(
      `${REFRESH_COOKIE}=; Path=/api/auth/refresh; Max-Age=0; HttpOnly; SameSite=Strict`,
    );
    expect((await call('POST', '/api/auth/logout', { token: token.accessToken })).json().message).toBe(
      'Token revoked!',
    );
    expect((await refresh(token.refreshToken)).statusCode).toBe(401);
    expect((await refresh(other)).statusCode).toBe(200);
  });
});

async function readResetLink(to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of await readdir(outbox)) {
          const mail = await simpleParser(await readFile(path.join(outbox, file)));
          const recipient = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          if (recipient?.text !== to) continue;
          link = /http:\/\/app\.test\/reset-password\?recoveryToken=[\w%-]+/.exec(mail.text ?? '')?.[0];
        }
        return link;
      },
      { timeout: 15_000, interval: 200 },
    )
    .toBeDefined();
  return link ?? '';
}

describe('password recovery', () => {
  it('answers the same message whether or not the e-mail has an account, and mails only a real one', async () => {
    const { email } = await signUp();
    const known = await call('POST', '/api/auth/password/forgot', { body: { email } });
    const unknown = await call('POST', '/api/auth/password/forgot', { body: { email: 'ghost@example.com' } });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: RECOVERY_MESSAGE });
    expect(unknown.json()).toEqual(known.json());
    await readResetLink(email);
    const recipients = await Promise.all(
      (await readdir(outbox)).map(
        async (file) => (await simpleParser(await readFile(path.join(outbox, file)))).to,
      ),
    );
    expect(JSON.stringify(recipients)).not.toContain('ghost@example.com');
  });

  it('resets the password once with the mailed token and ends every session', async () => {
    const { email, password, token } = await signUp();
    await call('POST', '/api/auth/password/forgot', { body: { email } });
    const link = await readResetLink(email);
    const recoveryToken = decodeURIComponent(new URL(link).searchParams.get('recoveryToken') ?? '');
    const stored = await database.db.select().from(passwordResets);
    expect(stored.some((row) => row.tokenHash === recoveryToken)).toBe(false);

    const reset = await call('POST', '/api/auth/password/recover', {
      body: { password: 'N3w-password', recoveryToken },
    });
    expect(reset.statusCode).toBe(200);
    expect((await call('POST', '/api/auth/signin/email', { body: { email, password } })).statusCode).toBe(
      401,
    );
    expect(
      (await call('POST', '/api/auth/signin/email', { body: { email, password: 'N3w-password' } }))
        .statusCode,
    ).toBe(200);
    expect((await call('POST', '/api/auth/logout', { token: token.accessToken })).json().message).toBe(
      'Token revoked!',
    );
    const again = await call('POST', '/api/auth/password/recover', {
      body: { password: 'Th1rd-password', recoveryToken },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_RECOVERY_TOKEN');
  });

  it('refuses a token past its expiry and a made-up one, changing nothing', async () => {
    const { email, password } = await signUp();
    await call('POST', '/api/auth/password/forgot', { body: { email } });
    const recoveryToken = decodeURIComponent(
      new URL(await readResetLink(email)).searchParams.get('recoveryToken') ?? '',
    );
    clock.advance(PASSWORD_RESET_TTL_MS + 1000);
    try {
      const expired = await call('POST', '/api/auth/password/recover', {
        body: { password: 'N3w-password', recoveryToken },
      });
      expect(expired.statusCode).toBe(400);
      const madeUp = await call('POST', '/api/auth/password/recover', {
        body: { password: 'N3w-password', recoveryToken: 'made-up' },
      });
      expect(madeUp.statusCode).toBe(400);
    } finally {
      clock.advance(-(PASSWORD_RESET_TTL_MS + 1000));
    }
    expect((await call('POST', '/api/auth/signin/email', { body: { email, password } })).statusCode).toBe(
      200,
    );
  });

  it('refuses a weak new password with the sign-up rule', async () => {
    const response = await call('POST', '/api/auth/password/recover', {
      body: { password: 'weak', recoveryToken: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Password should be at least 8 characters');
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per account from any address, with Retry-After', async () => {
    const { email } = await signUp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= RATE_LIMITS.signInPerAccount.max; attempt++) {
      const response = await call('POST', '/api/auth/signin/email', {
        body: { email, password: 'Wr0ng-pass' },
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(5 * 60);
        expect(response.json().code).toBe('RATE_LIMITED');
      }
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits sign-in attempts per address across accounts', async () => {
    const ip = '203.0.113.77';
    let last = 0;
    for (let attempt = 0; attempt <= RATE_LIMITS.signInPerIp.max; attempt++) {
      last = (
        await call('POST', '/api/auth/signin/email', {
          ip,
          body: { email: `spray${attempt}@example.com`, password: 'Wr0ng-pass' },
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('limits reset requests per address', async () => {
    let last = 0;
    for (let attempt = 0; attempt <= RATE_LIMITS.forgotPerAddress.max; attempt++) {
      last = (await call('POST', '/api/auth/password/forgot', { body: { email: 'limited@example.com' } }))
        .statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('sessions table', () => {
  it('keeps one row per signed-in device', async () => {
    const { email, password } = await signUp();
    await call('POST', '/api/auth/signin/email', { body: { email, password } });
    const [user] = (await database.db.select().from(users)).filter((row) => row.email === email);
    const rows = (await database.db.select().from(sessions)).filter((row) => row.userId === user?.userId);
    expect(rows).toHaveLength(2);
  });
});
