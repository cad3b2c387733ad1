/**
 * Test support for the users module: the real HTTP server (auth + users routes) on an isolated test
 * database, users signed up through the API, and multipart bodies. Not a test file itself.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { refreshTokenOf } from '#server-test/session-cookies';
import { type HttpServer, startTestApi, type TestApi } from '#server-test/test-api';

export const MAIL_DOMAIN = 'digest.test';
export const PASSWORD = 'correct horse 1!';

/** The API as start.ts wires it, on a fresh database (see test/test-api.ts). */
export const startTestApp = () => startTestApi({ mailDomain: MAIL_DOMAIN });
export type TestApp = TestApi;

let ipCounter = 0;

export interface TestUser {
  userId: string;
  email: string;
  accessToken: string;
  /** The value of the session's refresh cookie. */
  refreshToken: string;
  /** Authorization plus an address of this user's own, so rate limits of one test do not touch another. */
  headers: Record<string, string>;
  ip: string;
}

async function postSignUp(api: TestApi, email: string) {
  ipCounter += 1;
  const ip = `198.51.100.${ipCounter % 250}`;
  const response = await api.app.inject({
    method: 'POST',
    url: '/api/auth/signup/email',
    headers: { 'x-forwarded-for': ip },
    payload: { email, password: PASSWORD, confirmed: true },
  });
  if (response.statusCode !== 202) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return ip;
}

/** The user of a response that started a session (a sign-in, a followed verification link). */
function signedInUser(response: LightMyRequestResponse, ip: string, what: string): TestUser {
  if (response.statusCode !== 200) throw new Error(`${what} failed: ${response.statusCode} ${response.body}`);
  const { token, user } = response.json();
  return {
    userId: user.userId,
    email: user.email,
    accessToken: token.accessToken,
    refreshToken: refreshTokenOf(response),
    headers: { authorization: `Bearer ${token.accessToken}`, 'x-forwarded-for': ip },
    ip,
  };
}

/**
 * A new account made through `POST /api/auth/signup/email`, its address verified and signed in by following
 * the link of the verification mail.
 */
export async function signUp(api: TestApi, email = `${randomUUID()}@example.com`): Promise<TestUser> {
  const ip = await postSignUp(api, email);
  return signedInUser(await api.followVerificationLink(email, { 'x-forwarded-for': ip }), ip, 'verification');
}

/**
 * A new account whose owner has not followed the verification link yet but signed in with the password (the
 * app works; nothing is mailed from the account until the address is verified).
 */
export async function signUpUnverified(api: TestApi, email = `${randomUUID()}@example.com`) {
  const ip = await postSignUp(api, email);
  const response = await api.app.inject({
    method: 'POST',
    url: '/api/auth/signin/email',
    headers: { 'x-forwarded-for': ip },
    payload: { email, password: PASSWORD },
  });
  return signedInUser(response, ip, 'sign-in');
}

/** Another session (device) of an existing account, through `POST /api/auth/signin/email`. */
export async function signIn(app: HttpServer, user: TestUser, password = PASSWORD) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/signin/email',
    headers: { 'x-forwarded-for': user.ip },
    payload: { email: user.email, password },
  });
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A multipart/form-data body with these file parts (and text fields), built by hand. */
export function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----digest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
