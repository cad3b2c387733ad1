/**
 * Test support for the users module: the real HTTP server (auth + users routes) on an isolated test
 * database, users signed up through the API, and multipart bodies. Not a test file itself.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createTestDatabase } from '../../../test/test-database';
import { buildHttpServer, type HttpServer } from '../../app/http-server';
import type { DatabaseHandle } from '../../db/client';
import { createJobQueue, type JobDefinition } from '../../jobs/job-queue';
import { systemClock } from '../../platform/clock';
import { deriveKey } from '../../platform/crypto';
import { createMailer } from '../../platform/mailer';
import { createAccessTokens } from '../auth/access-tokens';
import { sendPasswordResetJob } from '../auth/auth.jobs';
import { authRoutes } from '../auth/auth.routes';
import { type IssuedTokens, startSession } from '../auth/auth.usecases';
import { createAuthenticate } from '../auth/authenticate';
import { usersRoutes } from './users.routes';

export const MAIL_DOMAIN = 'digest.test';
export const PASSWORD = 'correct horse 1!';

export interface TestApp {
  app: HttpServer;
  database: DatabaseHandle;
  /** A signed-in session for a user made directly in the database (e.g. a social account). */
  sessionFor(userId: string): Promise<IssuedTokens>;
  close(): Promise<void>;
}

/** The HTTP server as start.ts builds it, with the auth and users routes, on a fresh database. */
export async function startTestApp(): Promise<TestApp> {
  const logger = pino({ level: 'silent' });
  const database = await createTestDatabase();
  const outboxDir = await mkdtemp(path.join(os.tmpdir(), 'digest-users-outbox-'));
  const db = database.db;
  const clock = systemClock;
  const accessTokens = createAccessTokens(deriveKey(randomBytes(32).toString('hex'), 'access-token'), clock);
  const authenticate = createAuthenticate({ db, clock, accessTokens });
  const mailer = createMailer({ smtpUrl: undefined, outboxDir, from: 'Digest <digest@localhost>', logger });
  const passwordResetJob = sendPasswordResetJob({
    db,
    clock,
    accessTokens,
    mailer,
    logger,
    appUrl: 'http://x',
  });
  // No role: jobs can be sent (the queues exist) but none is worked.
  const jobs = createJobQueue({
    database,
    roles: [],
    logger,
    jobs: [passwordResetJob as JobDefinition<unknown>],
  });
  await jobs.start();
  const app = await buildHttpServer({
    logger,
    appUrl: 'http://localhost:3000',
    webDistDir: path.join(outboxDir, 'no-web-build'),
    health: {
      databaseKind: database.kind,
      roles: ['api'],
      pingDatabase: async () => {},
      pingQueue: () => jobs.ping(),
    },
    apiPlugins: [
      authRoutes({ db, clock, accessTokens, authenticate, jobs, passwordResetJob, mailDomain: MAIL_DOMAIN }),
      usersRoutes({ db, clock, authenticate, mailDomain: MAIL_DOMAIN }),
    ],
  });
  await app.ready();
  return {
    app,
    database,
    sessionFor: (userId) => startSession({ db, clock, accessTokens }, userId),
    async close() {
      await app.close();
      await jobs.stop(1000);
      await mailer.close();
      await database.close();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}

let ipCounter = 0;

export interface TestUser {
  userId: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  /** Authorization plus an address of this user's own, so rate limits of one test do not touch another. */
  headers: Record<string, string>;
  ip: string;
}

/** A new account made through `POST /api/auth/signup/email`. */
export async function signUp(app: HttpServer, email = `${randomUUID()}@example.com`): Promise<TestUser> {
  ipCounter += 1;
  const ip = `198.51.100.${ipCounter % 250}`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signup/email',
    headers: { 'x-forwarded-for': ip },
    payload: { email, password: PASSWORD, confirmed: true },
  });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const { token, user } = response.json();
  return {
    userId: user.userId,
    email: user.email,
    accessToken: token.accessToken,
    refreshToken: token.refreshToken,
    headers: { authorization: `Bearer ${token.accessToken}`, 'x-forwarded-for': ip },
    ip,
  };
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
