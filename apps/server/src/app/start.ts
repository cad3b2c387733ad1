import path from 'node:path';
import { type DatabaseHandle, openDatabase, pingDatabase } from '../db/client';
import { acquireDataDirLock } from '../db/data-dir-lock';
import { migrateDatabase } from '../db/migrate';
import { createJobQueue, type JobDefinition, type JobQueue } from '../jobs/job-queue';
import { createAccessTokens } from '../modules/auth/access-tokens';
import { sendPasswordResetJob } from '../modules/auth/auth.jobs';
import { authRoutes } from '../modules/auth/auth.routes';
import { createAuthenticate } from '../modules/auth/authenticate';
import { createSocialProviders } from '../modules/auth/social/social.providers';
import { socialRoutes } from '../modules/auth/social/social.routes';
import { purgeExpiredTokensJob } from '../modules/housekeeping/housekeeping.jobs';
import { usersRoutes } from '../modules/users/users.routes';
import { loadAppSecret } from '../platform/app-secret';
import { systemClock } from '../platform/clock';
import { deriveKey } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import { createMailer } from '../platform/mailer';
import type { Config } from './config';
import { buildHttpServer, type HttpServer } from './http-server';

export interface RunningDigest {
  /** Where the API listens, when this process runs the api role. */
  url: string | undefined;
  database: DatabaseHandle;
  stop(): Promise<void>;
}

/**
 * The composition root: builds every dependency once, in order, and starts the roles of this process.
 * Stopping reverses it: no new requests or jobs, running ones finish, then the database closes.
 */
export async function startDigest(
  config: Config,
  logger: Logger,
  webDistDir: string,
): Promise<RunningDigest> {
  const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  const cleanups: (() => Promise<void>)[] = [async () => lock?.release()];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const database = await openDatabase(config);
    cleanups.push(() => database.close());
    await migrateDatabase(database);

    const appSecret = await loadAppSecret(config);
    const clock = systemClock;
    const db = database.db;
    const accessTokens = createAccessTokens(deriveKey(appSecret, 'access-token'), clock);
    const authenticate = createAuthenticate({ db, clock, accessTokens });
    const authDeps = { db, clock, accessTokens };
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      outboxDir: path.join(config.dataDir, 'outbox'),
      from: config.mailFrom,
      logger,
    });
    cleanups.push(() => mailer.close());

    const passwordResetJob = sendPasswordResetJob({ ...authDeps, mailer, logger, appUrl: config.appUrl });
    const jobs: JobQueue = createJobQueue({
      database,
      roles: config.roles,
      logger,
      jobs: [purgeExpiredTokensJob({ db, clock, logger }), passwordResetJob as JobDefinition<unknown>],
    });
    await jobs.start();
    cleanups.push(() => jobs.stop(config.shutdownTimeoutMs));

    let http: HttpServer | undefined;
    if (config.roles.includes('api')) {
      http = await buildHttpServer({
        logger,
        appUrl: config.appUrl,
        webDistDir,
        health: {
          databaseKind: database.kind,
          roles: config.roles,
          pingDatabase: () => pingDatabase(database),
          pingQueue: () => jobs.ping(),
        },
        apiPlugins: [
          authRoutes({ ...authDeps, authenticate, jobs, passwordResetJob, mailDomain: config.mailDomain }),
          usersRoutes({ db, clock, authenticate, mailDomain: config.mailDomain }),
          socialRoutes({
            ...authDeps,
            appUrl: config.appUrl,
            mailDomain: config.mailDomain,
            providers: createSocialProviders(config.oauth),
          }),
        ],
      });
      await http.listen({ port: config.port, host: config.host });
      const server = http;
      cleanups.push(() => server.close());
    }
    const address = http?.server.address();
    const url = address && typeof address === 'object' ? `http://${config.host}:${address.port}` : undefined;
    logger.info({ roles: config.roles, database: database.kind, url }, 'Digest started');
    return { url, database, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
