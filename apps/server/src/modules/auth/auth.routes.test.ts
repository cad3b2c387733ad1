import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SIGN_UP_MESSAGE } from '@digest/contracts';
import { SignJWT } from 'jose';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { passwordResets, sessions, users } from '#server/db/schema';
import { deriveKey } from '#server/platform/crypto';
import { type HttpServer, startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { RATE_LIMITS, RECOVERY_MESSAGE } from './auth.routes';
import { PASSWORD_RESET_TTL_MS } from './auth.usecases';

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
  return {
    email,
    password,
    ...(verified.json() as { token: { accessToken: string; refreshToken: string } }),
  };
}

const countUsers = async () => (await database.db.select().from(users)).length;

describe('sign-up by e-mail', () => {
  it('creates the account unconfirmed, with no session, and stores the e-mail lower-cased', async () => {
    const response = await call('POST', '/api/auth/signup/email', {
      body: { email: '  Grace.Hopper@Example.COM ', password: 'C0bol-forever', confirmed: true },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: SIGN_UP_MESSAGE });
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

describe('refresh tokens', () => {
  const refresh = (refreshToken: string) => call('POST', '/api/auth/refresh', { body: { refreshToken } });

  it('rotates: a refresh answers a new pair and the old refresh token stops working', async () => {
    const { token } = await signUp();
    const first = await refresh(token.refreshToken);
    expect(first.statusCode).toBe(200);
    const next = first.json().token;
    expect(next.refreshToken).not.toBe(token.refreshToken);
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token is presented again', async () => {
    const { token } = await signUp();
    const rotated = (await refresh(token.refreshToken)).json().token;
    const reuse = await refresh(token.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ code: 'TOKEN_REVOKED', message: 'Token revoked!' });
    expect((await refresh(rotated.refreshToken)).json().message).toBe('Token revoked!');
    const logout = await call('POST', '/api/auth/logout', { token: rotated.accessToken });
    expect(logout.json().message).toBe('Token revoked!');
  });

  it('refuses an unknown refresh token', async () => {
    const response = await refresh('a'.repeat(43));
    expect(response.statusCode).toBe(401);
  });
});

describe('logout', () => {
  it('ends the session: its access and refresh tokens stop working, other sessions go on', async () => {
    const { email, password, token } = await signUp();
    const other = (await call('POST', '/api/auth/signin/email', { body: { email, password } })).json().token;
    const response = await call('POST', '/api/auth/logout', { token: token.accessToken });
    expect(response.statusCode).toBe(200);
    expect((await call('POST', '/api/auth/logout', { token: token.accessToken })).json().message).toBe(
      'Token revoked!',
    );
    expect(
      (await call('POST', '/api/auth/refresh', { body: { refreshToken: token.refreshToken } })).statusCode,
    ).toBe(401);
    expect(
      (await call('POST', '/api/auth/refresh', { body: { refreshToken: other.refreshToken } })).statusCode,
    ).toBe(200);
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
