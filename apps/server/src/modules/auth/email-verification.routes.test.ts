import { randomUUID } from 'node:crypto';
import { SIGN_UP_MESSAGE } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerifications, sessions, users } from '#server/db/schema';
import { PASSWORD, signUp, type TestUser } from '#server/modules/users/test-support';
import { insertUser } from '#server/modules/users/users.repository';
import { USERS_RATE_LIMITS } from '#server/modules/users/users.routes';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { RATE_LIMITS } from './auth.routes';
import { createEmailVerification, EMAIL_VERIFICATION_TTL_MS } from './email-verification.jobs';
import { VERIFICATION_RATE_LIMITS } from './email-verification.routes';
import { verifyEmail } from './email-verification.usecases';

let smtp: TestSmtpServer;
let t: TestApi;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApi({ roles: ['worker'], smtp });
});
afterAll(async () => {
  await t?.close();
  await closeSmtpServers();
});

let ipCounter = 0;
/** Each client its own address, so per-address limits of one test stay out of the others. */
const nextIp = () => `203.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const freshEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

function post(url: string, payload?: object, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-forwarded-for': nextIp(), ...headers },
    ...(payload ? { payload } : {}),
  });
}

const signUpRequest = (email: string, password = PASSWORD, ip = nextIp()) =>
  post('/api/auth/signup/email', { email, password, confirmed: true }, { 'x-forwarded-for': ip });

/** Waits for the `count`-th message to `address` whose subject matches. */
async function mailTo(address: string, subject: RegExp, count = 1): Promise<ParsedMail> {
  let found: ParsedMail[] = [];
  await expect
    .poll(
      () => {
        found = smtp.received
          .filter((mail) => mail.rcptTo.includes(address) && subject.test(mail.parsed.subject ?? ''))
          .map((mail) => mail.parsed);
        return found.length;
      },
      { timeout: 15_000, interval: 100 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[count - 1] as ParsedMail;
}

const mailsTo = (address: string) => smtp.received.filter((mail) => mail.rcptTo.includes(address));

const tokenOf = (mail: ParsedMail) =>
  decodeURIComponent(/\/verify-email\?token=([\w%-]+)/.exec(mail.text ?? '')?.[1] ?? '');

const userRow = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

const verify = (token: string) => post('/api/auth/email/verify', { token });

describe('sign-up answers the same whether or not the address has an account', () => {
  it('answers byte-identical 202s without a session; the new address gets a link, the taken one a note', async () => {
    const taken = await signUp(t);
    const fresh = freshEmail('fresh');
    const newAnswer = await signUpRequest(fresh);
    const takenAnswer = await signUpRequest(taken.email.toUpperCase(), 'Other-passw0rd');
    for (const answer of [newAnswer, takenAnswer]) {
      expect(answer.statusCode).toBe(202);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect(takenAnswer.rawPayload.equals(newAnswer.rawPayload)).toBe(true);
    expect(newAnswer.json()).toEqual({ message: SIGN_UP_MESSAGE });

    const link = await mailTo(fresh, /^Confirm your e-mail address for Digest$/);
    expect(link.text).toContain('http://app.test/verify-email?token=');
    const note = await mailTo(taken.email, /^Someone tried to sign up to Digest with your address$/);
    expect(note.text).toContain('http://app.test/forgetPassword');
    expect(note.text).not.toContain('verify-email');
    // The taken account is as it was: same password, no second account.
    expect((await userRow(taken.email))?.userId).toBe(taken.userId);
    const signIn = await post('/api/auth/signin/email', { email: taken.email, password: PASSWORD });
    expect(signIn.statusCode).toBe(200);
  });

  it('limits sign-ups per address, whichever answer the address would get', async () => {
    const email = freshEmail('limited');
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= RATE_LIMITS.signUpPerAddress.max; attempt++) {
      statuses.push((await signUpRequest(email)).statusCode);
    }
    expect(statuses).toEqual([...Array(RATE_LIMITS.signUpPerAddress.max).fill(202), 429]);
  });
});

describe('the verification link', () => {
  it('is stored only as a hash, verifies on POST once, signs in and confirms the address', async () => {
    const email = freshEmail('verify');
    await signUpRequest(email);
    const token = tokenOf(await mailTo(email, /^Confirm your e-mail address/));
    const stored = await t.database.db.select().from(emailVerifications);
    expect(stored.some((row) => row.tokenHash === token)).toBe(false);
    expect(await userRow(email)).toMatchObject({ confirmed: false });

    // Opening the link (what a mail scanner does) reaches the web page only: no API verifies on GET.
    const opened = await t.app.inject({ method: 'GET', url: `/api/auth/email/verify?token=${token}` });
    expect(opened.statusCode).toBe(404);
    expect(await userRow(email)).toMatchObject({ confirmed: false });

    const verified = await verify(token);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toMatchObject({ email, confirmed: true });
    const me = await t.app.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${verified.json().token.accessToken}` },
    });
    expect(me.json().user.confirmed).toBe(true);

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'INVALID_VERIFICATION_LINK',
      message:
        'This confirmation link is invalid, was already used or has expired. Sign in and ask for a new one.',
    });
  });

  it('refuses a made-up, an expired and a malformed token, confirming nothing', async () => {
    const email = freshEmail('expired');
    await signUpRequest(email);
    const token = tokenOf(await mailTo(email, /^Confirm your e-mail address/));
    await t.database.db
      .update(emailVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailVerifications.userId, (await userRow(email))?.userId ?? ''));
    expect((await verify(token)).statusCode).toBe(400);
    expect((await verify('a'.repeat(43))).statusCode).toBe(400);
    expect((await post('/api/auth/email/verify', {})).statusCode).toBe(400);
    expect((await post('/api/auth/email/verify', { token: 'x'.repeat(201) })).statusCode).toBe(400);
    expect(await userRow(email)).toMatchObject({ confirmed: false });
    expect(EMAIL_VERIFICATION_TTL_MS).toBe(24 * 60 * 60 * 1000);
  });
});

describe('before the address is verified', () => {
  it('the password signs in (the app works, unconfirmed), Resend mails a new link, and verifying ends the earlier sessions', async () => {
    const email = freshEmail('early');
    await signUpRequest(email);
    await mailTo(email, /^Confirm your e-mail address/);
    const signIn = await post('/api/auth/signin/email', { email, password: PASSWORD });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user.confirmed).toBe(false);
    const headers = { authorization: `Bearer ${signIn.json().token.accessToken}` };

    const resent = await post('/api/auth/email/resend', undefined, headers);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ message: `We sent a new confirmation link to ${email}.` });
    const second = await mailTo(email, /^Confirm your e-mail address/, 2);
    const verified = await verify(tokenOf(second));
    expect(verified.statusCode).toBe(200);
    // Sessions from before the mailbox was proven may be whoever registered the address first: they end.
    const early = await post('/api/auth/email/resend', undefined, headers);
    expect(early.json()).toEqual({ code: 'TOKEN_REVOKED', message: 'Token revoked!' });

    const done = await post('/api/auth/email/resend', undefined, {
      authorization: `Bearer ${verified.json().token.accessToken}`,
    });
    expect(done.statusCode).toBe(409);
    expect(done.json().code).toBe('ALREADY_VERIFIED');
  });

  it('Resend needs a sign-in and is limited per account', async () => {
    expect((await post('/api/auth/email/resend')).statusCode).toBe(401);
    const email = freshEmail('resend');
    await signUpRequest(email);
    const token = (await post('/api/auth/signin/email', { email, password: PASSWORD })).json().token;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= VERIFICATION_RATE_LIMITS.resendPerUser.max; attempt++) {
      statuses.push(
        (await post('/api/auth/email/resend', undefined, { authorization: `Bearer ${token.accessToken}` }))
          .statusCode,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
  });
});

const changeEmail = (user: Pick<TestUser, 'headers'>, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/users/me/email', headers: user.headers, payload });

describe('changing the e-mail', () => {
  it('needs the current password: wrong or missing is refused and changes nothing', async () => {
    const user = await signUp(t);
    const before = await userRow(user.email);
    const wrong = await changeEmail(user, { email: freshEmail('new'), password: 'Wr0ng-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'WRONG_PASSWORD', message: 'Current password is incorrect.' });
    const missing = await changeEmail(user, { email: freshEmail('new') });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('body.password');
    expect(await userRow(user.email)).toEqual(before);
    expect(
      await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, user.userId)),
    ).toHaveLength(1);
  });

  it('limits password guesses per account', async () => {
    const user = await signUp(t);
    let last = 0;
    for (let attempt = 0; attempt <= VERIFICATION_RATE_LIMITS.emailChangePerUser.max; attempt++) {
      last = (await changeEmail(user, { email: freshEmail('guess'), password: `Wr0ng-${attempt}!` }))
        .statusCode;
    }
    expect(last).toBe(429);
  });

  it('keeps the old address until the new one is verified, tells the old one, then ends every other session', async () => {
    const user = await signUp(t);
    const otherDevice = (
      await post('/api/auth/signin/email', { email: user.email, password: PASSWORD })
    ).json().token;
    const newEmail = freshEmail('moved');
    const asked = await changeEmail(user, { email: newEmail.toUpperCase(), password: PASSWORD });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().user).toMatchObject({ email: user.email, pendingEmail: newEmail, confirmed: true });
    // Until verified, the old address is the account's: it signs in, the new one does not.
    expect((await post('/api/auth/signin/email', { email: newEmail, password: PASSWORD })).statusCode).toBe(
      401,
    );

    const notice = await mailTo(user.email, /^Your Digest e-mail address is being changed$/);
    expect(notice.text).toContain(`${newEmail.slice(0, 1)}•••@example.com`);
    expect(notice.text).not.toContain(newEmail);
    expect(notice.text).toContain('If this wasn’t you, reset your password');
    expect(notice.text).not.toContain('verify-email');
    const link = await mailTo(newEmail, /^Confirm your new e-mail address for Digest$/);

    const verified = await verify(tokenOf(link));
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toMatchObject({ email: newEmail, pendingEmail: null, confirmed: true });
    const meWith = (accessToken: string) =>
      t.app.inject({ url: '/api/users/me', headers: { authorization: `Bearer ${accessToken}` } });
    expect((await meWith(otherDevice.accessToken)).json()).toEqual({
      code: 'TOKEN_REVOKED',
      message: 'Token revoked!',
    });
    expect((await t.app.inject({ url: '/api/users/me', headers: user.headers })).statusCode).toBe(200);
    expect((await meWith(verified.json().token.accessToken)).statusCode).toBe(200);
    expect((await post('/api/auth/signin/email', { email: newEmail, password: PASSWORD })).statusCode).toBe(
      200,
    );
    expect((await post('/api/auth/signin/email', { email: user.email, password: PASSWORD })).statusCode).toBe(
      401,
    );
  });

  it('Cancel drops the pending address and its link; Resend mails the pending address again', async () => {
    const user = await signUp(t);
    const newEmail = freshEmail('cancelled');
    await changeEmail(user, { email: newEmail, password: PASSWORD });
    const first = await mailTo(newEmail, /^Confirm your new e-mail address/);
    const resent = await post('/api/auth/email/resend', undefined, user.headers);
    expect(resent.json()).toEqual({ message: `We sent a new confirmation link to ${newEmail}.` });
    await mailTo(newEmail, /^Confirm your new e-mail address/, 2);
    // A resend does not tell the old address a second time.
    expect(
      mailsTo(user.email).filter((mail) => /being changed/.test(mail.parsed.subject ?? '')),
    ).toHaveLength(1);

    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/email/pending',
      headers: user.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().user).toMatchObject({ email: user.email, pendingEmail: null });
    const late = await verify(tokenOf(first));
    expect(late.statusCode).toBe(400);
    expect(await userRow(user.email)).toMatchObject({ pendingEmail: null });
  });

  it('refuses at verification an address another account took meanwhile, with a clear message', async () => {
    const user = await signUp(t);
    const contested = freshEmail('contested');
    await changeEmail(user, { email: contested, password: PASSWORD });
    const link = await mailTo(contested, /^Confirm your new e-mail address/);
    await signUpRequest(contested);
    const other = await verify(tokenOf(await mailTo(contested, /^Confirm your e-mail address for Digest$/)));
    expect(other.json().user.email).toBe(contested);
    const refused = await verify(tokenOf(link));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'EMAIL_TAKEN',
      message:
        'This address now belongs to another Digest account, so it cannot become yours. Cancel the change in your profile or choose another address.',
    });
    expect(await userRow(user.email)).toMatchObject({ userId: user.userId, pendingEmail: contested });
  });

  it("one user's token never touches another's pending address; anonymous requests are refused", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const bNew = freshEmail('b-new');
    await changeEmail(b, { email: bNew, password: PASSWORD });
    const bBefore = await userRow(b.email);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/email/pending',
      headers: a.headers,
    });
    expect(cancelled.json().user.userId).toBe(a.userId);
    expect(await userRow(b.email)).toEqual(bBefore);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/me/email/pending' })).statusCode).toBe(
      401,
    );
    expect((await post('/api/users/me/email', { email: bNew, password: PASSWORD })).statusCode).toBe(401);
  });
});

async function socialUser(sessionAgeMinutes: number) {
  const user = await insertUser(t.database.db, {
    email: freshEmail('social'),
    method: 'google',
    confirmed: true,
  });
  const token = await t.sessionFor(user.userId);
  await t.database.db
    .update(sessions)
    .set({ createdAt: new Date(Date.now() - sessionAgeMinutes * 60_000) })
    .where(eq(sessions.userId, user.userId));
  return { ...user, headers: { authorization: `Bearer ${token.accessToken}`, 'x-forwarded-for': nextIp() } };
}

const deleteAccount = (user: { headers: Record<string, string> }, payload: object) =>
  t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: user.headers, payload });

describe('deleting the account', () => {
  it('needs the current password: wrong or missing is refused and deletes nothing', async () => {
    const user = await signUp(t);
    const wrong = await deleteAccount(user, { password: 'Wr0ng-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'WRONG_PASSWORD', message: 'Current password is incorrect.' });
    const missing = await deleteAccount(user, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 'PASSWORD_REQUIRED', message: 'Enter your current password' });
    expect(await userRow(user.email)).toBeDefined();
    expect((await deleteAccount(user, { password: PASSWORD })).statusCode).toBe(200);
    expect(await userRow(user.email)).toBeUndefined();
  });

  it('limits password guesses per account', async () => {
    const user = await signUp(t);
    let last = 0;
    for (let attempt = 0; attempt <= USERS_RATE_LIMITS.passwordPerUser.max; attempt++) {
      last = (await deleteAccount(user, { password: `Wr0ng-${attempt}!` })).statusCode;
    }
    expect(last).toBe(429);
    expect(await userRow(user.email)).toBeDefined();
  });

  it('for a social account (no password): a sign-in in the last 10 minutes, else sign in again', async () => {
    const stale = await socialUser(11);
    const refused = await deleteAccount(stale, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'RECENT_SIGN_IN_REQUIRED',
      message:
        'For your safety, this needs a sign-in in the last 10 minutes. Log out, sign in again and retry.',
    });
    expect(await userRow(stale.email)).toBeDefined();
    const fresh = await socialUser(2);
    expect((await deleteAccount(fresh, {})).statusCode).toBe(200);
    expect(await userRow(fresh.email)).toBeUndefined();
  });
});

describe('changing the password', () => {
  it('needs the current one, and ends every other session', async () => {
    const user = await signUp(t);
    const other = (await post('/api/auth/signin/email', { email: user.email, password: PASSWORD })).json()
      .token;
    const change = (oldPassword: string) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/users/me/password',
        headers: user.headers,
        payload: { oldPassword, newPassword: 'An0ther-password' },
      });
    expect((await change('Wr0ng-password')).json().code).toBe('WRONG_PASSWORD');
    expect((await change(PASSWORD)).statusCode).toBe(200);
    const otherMe = await t.app.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${other.accessToken}` },
    });
    expect(otherMe.json().message).toBe('Token revoked!');
    expect((await t.app.inject({ url: '/api/users/me', headers: user.headers })).statusCode).toBe(200);
  });
});

describe('the site tells the web app where mail goes', () => {
  it('smtp when SMTP_URL is set (the outbox otherwise)', async () => {
    expect((await t.app.inject('/api/site')).json().mailTransport).toBe('smtp');
  });
});

describe('onAddressVerified', () => {
  it('is called with the user once the address is verified, and not for a refused link', async () => {
    const called: string[] = [];
    const deps = {
      ...t.modules.authDeps,
      onAddressVerified: async (userId: string) => void called.push(userId),
    };
    const user = await insertUser(t.database.db, {
      email: freshEmail('hook'),
      passwordHash: 'x',
      method: 'email',
    });
    const created = await createEmailVerification(deps, { userId: user.userId, purpose: 'sign-up' });
    await expect(verifyEmail(deps, 'made-up')).rejects.toThrow();
    expect(called).toEqual([]);
    await verifyEmail(deps, created?.token ?? '');
    expect(called).toEqual([user.userId]);
  });
});
