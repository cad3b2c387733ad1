import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { type ParsedMail, simpleParser } from 'mailparser';
import pino from 'pino';
import type { Role } from '#server/app/config';
import { loadConfig } from '#server/app/config';
import { buildHttpServer, type HttpServer } from '#server/app/http-server';
import { composeModules } from '#server/app/modules';
import { type DatabaseHandle, pingDatabase } from '#server/db/client';
import { type IssuedTokens, startSession } from '#server/modules/auth/auth.usecases';
import { sendEmailVerificationJob } from '#server/modules/auth/email-verification.jobs';
import { createSocialProviders, type SocialProviders } from '#server/modules/auth/social/social.providers';
import { findUserByEmail } from '#server/modules/users/users.repository';
import { type Clock, systemClock } from '#server/platform/clock';
import { createJobQueue, type JobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import { createMailer } from '#server/platform/mailer';
import type { SourcesDeps } from '#server/sources/connector';
import type { TestSmtpServer } from './smtp-test-server';
import { providerConfigOf } from './test-config';
import { createTestDatabase } from './test-database';

/** The app a test talks to: module test-supports take it from here, not from app/. */
export type { HttpServer };

export interface TestApiOptions {
  /** Shared by several apps of one test file; otherwise a fresh one, closed with the app. */
  database?: DatabaseHandle;
  clock?: Clock;
  logger?: Logger;
  /** `['worker']` to have jobs worked; by default they are only queued. */
  roles?: Role[];
  socialProviders?: SocialProviders;
  appUrl?: string;
  /** By default a random one; tests that build their own parts of the program beside the app name one. */
  appSecret?: string;
  mailDomain?: string;
  /** Point every provider at these fake providers (and let fetches reach them on 127.0.0.1). */
  fakes?: { env: Record<string, string> };
  /** Send mail to this SMTP server instead of the outbox. */
  smtp?: TestSmtpServer;
  /** SCHEDULE_MAX_LATENESS_MINUTES in milliseconds; 60 minutes by default. */
  scheduleMaxLatenessMs?: number;
  /** ISSUE_STORAGE_QUOTA_MB in bytes; the configuration's default by default. */
  issueStorageQuotaBytes?: number;
  /** NEWSLETTER_QUOTA_MB in bytes; the configuration's default by default. */
  newsletterQuotaBytes?: number;
  /** MAIL_RECIPIENTS_PER_DAY; 200 by default. */
  recipientsPerDay?: number;
  /** A built web app to serve (index.html); by default none, and only the API answers. */
  webDistDir?: string;
  /** SUPPORT_EMAIL, CHANGELOG_URL, TERMS_… and PRIVACY_… as the environment would set them. */
  siteEnv?: Record<string, string>;
  /** The changelog's Markdown; the repository's CHANGELOG.md by default. */
  changelogMarkdown?: string;
}

const REPOSITORY_CHANGELOG = new URL('../../../CHANGELOG.md', import.meta.url);

export interface TestApi {
  app: HttpServer;
  database: DatabaseHandle;
  jobs: JobQueue;
  /** What the connectors are given, as composeModules wired it (connected accounts included). */
  sources: SourcesDeps;
  /** The program's modules as composed for this app (issues use cases, scheduler, …). */
  modules: ReturnType<typeof composeModules>;
  /** Where mail goes (.eml files): no SMTP_URL in tests. */
  outboxDir: string;
  /** A signed-in session for a user made directly in the database. */
  sessionFor(userId: string): Promise<IssuedTokens>;
  /** Every message sent so far: from the SMTP server when one was given, else from the outbox. */
  mail(): Promise<ParsedMail[]>;
  /**
   * Follows the newest verification link mailed to `email` as the web page does (`POST /api/auth/email/verify`)
   * and answers the response: the sign-in it starts. Without a worker, first sends the sign-up's
   * verification mail as the worker would (the sign-up only queued it).
   */
  followVerificationLink(email: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The HTTP API exactly as start.ts wires it (composeModules), on an isolated test database. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const clock = options.clock ?? systemClock;
  const database = options.database ?? (await createTestDatabase());
  const outboxDir = await mkdtemp(path.join(os.tmpdir(), 'digest-test-outbox-'));
  const mailer = createMailer({
    outboxDir,
    from: 'Digest <digest@localhost>',
    mailDomain: options.mailDomain ?? 'digest.test',
    logger,
    ...(options.smtp ? { smtpUrl: `smtp://127.0.0.1:${options.smtp.port}` } : {}),
  });
  const roles = options.roles ?? [];
  const jobs = createJobQueue({
    database,
    role: { work: roles.includes('worker'), schedule: roles.includes('scheduler') },
    logger,
  });
  const modules = composeModules({
    database,
    clock,
    logger,
    mailer,
    appSecret: options.appSecret ?? randomBytes(32).toString('hex'),
    appUrl: options.appUrl ?? 'http://app.test',
    mailDomain: options.mailDomain ?? 'digest.test',
    socialProviders: options.socialProviders ?? createSocialProviders(loadConfig({}).oauth),
    providers: providerConfigOf(options.fakes?.env ?? {}),
    oauth: loadConfig(options.fakes?.env ?? {}).oauth,
    fetchAllowPrivateHosts: options.fakes ? ['127.0.0.1'] : [],
    scheduleMaxLatenessMs: options.scheduleMaxLatenessMs ?? 60 * 60_000,
    // As the program runs: the revocation tests then check that a session ended is refused at once.
    sessionCheckCacheMs: loadConfig({}).sessionCheckCacheMs,
    // As the program runs: every route test then reads lists through the memory the triggers keep true.
    digestListCacheUsers: loadConfig({}).digestListCacheUsers,
    issueStorageQuotaBytes: options.issueStorageQuotaBytes ?? loadConfig({}).issueStorageQuotaBytes,
    newsletterQuotaBytes: options.newsletterQuotaBytes ?? loadConfig({}).newsletterQuotaBytes,
    newsletterReceiving: true,
    recipientsPerDay: options.recipientsPerDay ?? 200,
    queue: jobs,
    site: loadConfig(options.siteEnv ?? {}).site,
    changelogMarkdown: options.changelogMarkdown ?? (await readFile(REPOSITORY_CHANGELOG, 'utf8')),
  });
  await jobs.start(modules.jobs);
  const app = await buildHttpServer({
    logger,
    appUrl: options.appUrl ?? 'http://app.test',
    // Tests name their clients with X-Forwarded-For (per-IP rate limits).
    trustProxy: true,
    // Route tests check what each route documents in the OpenAPI document.
    apiDocs: true,
    webDistDir: options.webDistDir ?? path.join(outboxDir, 'no-web-build'),
    health: {
      databaseKind: database.kind,
      roles: ['api'],
      pingDatabase: () => pingDatabase(database),
      pingQueue: () => jobs.ping(),
    },
    apiPlugins: modules.routes,
    pageHeadFor: modules.pageHeadFor,
  });
  await app.ready();
  const mail = async () =>
    options.smtp
      ? options.smtp.received.map((received) => received.parsed)
      : Promise.all(
          (await readdir(outboxDir))
            .filter((file) => file.endsWith('.eml'))
            .sort()
            .map(async (file) => simpleParser(await readFile(path.join(outboxDir, file)))),
        );
  const linkPattern = /\/verify-email\?token=([\w%-]+)/;
  const newestLink = async (email: string) => {
    const to = email.toLowerCase();
    const texts = (await mail())
      .filter((message) => [message.to].flat().some((address) => address?.text === to))
      .map((message) => linkPattern.exec(message.text ?? '')?.[1])
      .filter((token) => token !== undefined);
    return texts.at(-1);
  };
  return {
    app,
    database,
    jobs,
    sources: modules.sources,
    modules,
    outboxDir,
    sessionFor: (userId) => startSession(modules.authDeps, userId),
    mail,
    async followVerificationLink(email, headers = {}) {
      if (!roles.includes('worker')) {
        const user = await findUserByEmail(database.db, email);
        const job = modules.jobs.find((registered) => registered.contract === sendEmailVerificationJob);
        if (!user || !job) throw new Error(`no account or verification job for ${email}`);
        await job.run(
          { userId: user.userId, purpose: 'sign-up' },
          { id: 'test', retryCount: 0, retryLimit: 0 },
        );
      }
      // A loop of its own rather than expect.poll, which works only inside a test (not in beforeAll).
      let token = await newestLink(email);
      for (const deadline = Date.now() + 15_000; !token && Date.now() < deadline; ) {
        await setTimeout(100);
        token = await newestLink(email);
      }
      if (!token) throw new Error(`no verification link was mailed to ${email}`);
      return app.inject({
        method: 'POST',
        url: '/api/auth/email/verify',
        headers,
        payload: { token: decodeURIComponent(token) },
      });
    },
    async close() {
      await app.close();
      await jobs.stop(1_000);
      await mailer.close();
      if (!options.database) await database.close();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}
