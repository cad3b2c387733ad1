import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type DatabaseHandle, openDatabase, pingDatabase } from '#server/db/client';
import { acquireDataDirLock } from '#server/db/data-dir-lock';
import { migrateDatabase } from '#server/db/migrate';
import { createSocialProviders } from '#server/modules/auth/social/social.providers';
import { classifyParsedMessage } from '#server/modules/newsletters/classify';
import { createInboundSmtpServer } from '#server/modules/newsletters/inbound-smtp';
import { systemDnsResolver } from '#server/modules/newsletters/mail-authentication';
import { loadAppSecret } from '#server/platform/app-secret';
import { systemClock } from '#server/platform/clock';
import { createJobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import { createMailer } from '#server/platform/mailer';
import type { Config } from './config';
import { buildHttpServer, type HttpServer } from './http-server';
import { composeModules } from './modules';
import { stopBudget } from './stop-budget';

export interface RunningDigest {
  /** Where the API listens, when this process runs the api role. */
  url: string | undefined;
  /** The port the newsletter SMTP server listens on, when this process runs the inbound role. */
  inboundPort: number | undefined;
  database: DatabaseHandle;
  stop(): Promise<void>;
  /** What a stop under way is waiting for (named in the log when the stop takes too long). */
  stoppingAt(): string | undefined;
}

/**
 * The composition root: builds every dependency once, in order, and starts the roles of this process.
 * Stopping reverses it: no new requests or jobs, running ones finish, then the database closes.
 */
/** Files of the repository the server shows: the built web app and the changelog. */
export interface ServedFiles {
  webDistDir: string;
  changelogFile: string;
}

/** The changelog's Markdown; a server deployed without it still starts, and its page says there is none. */
async function readChangelog(file: string, logger: Logger): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    logger.warn({ err: error, file }, 'no changelog to show at /changelog');
    return undefined;
  }
}

export async function startDigest(
  config: Config,
  logger: Logger,
  files: ServedFiles,
): Promise<RunningDigest> {
  const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  const cleanups: { name: string; run: () => Promise<void> }[] = [
    { name: 'the data directory lock', run: async () => lock?.release() },
  ];
  let stoppingAt: string | undefined;
  const budget = stopBudget(config.shutdownTimeoutMs);
  const stop = async () => {
    budget.start();
    for (const cleanup of cleanups.reverse()) {
      stoppingAt = cleanup.name;
      await cleanup.run();
    }
    stoppingAt = undefined;
  };
  try {
    const database = await openDatabase({
      ...config,
      // Only the API keeps anything on the strength of other writers' changes (the digest lists).
      hearChanges: config.roles.includes('api'),
      onIdleError: (error) =>
        logger.warn({ err: error }, 'an idle database connection was lost; the pool replaces it'),
    });
    cleanups.push({ name: 'the database', run: () => database.close() });
    await migrateDatabase(database);

    const clock = systemClock;
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      outboxDir: path.join(config.dataDir, 'outbox'),
      from: config.mailFrom,
      dkim: config.dkim,
      mailDomain: config.mailDomain,
      logger,
    });
    cleanups.push({ name: 'the mailer', run: () => mailer.close() });

    const jobs = createJobQueue({
      database,
      role: { work: config.roles.includes('worker'), schedule: config.roles.includes('scheduler') },
      logger,
    });
    const modules = composeModules({
      database,
      clock,
      logger,
      mailer,
      appSecret: await loadAppSecret(config),
      appUrl: config.appUrl,
      mailDomain: config.mailDomain,
      socialProviders: createSocialProviders(config.oauth),
      oauth: config.oauth,
      providers: config.providers,
      fetchAllowPrivateHosts: config.fetchAllowPrivateHosts,
      scheduleMaxLatenessMs: config.scheduleMaxLatenessMs,
      sessionCheckCacheMs: config.sessionCheckCacheMs,
      digestListCacheUsers: config.digestListCacheUsers,
      issueStorageQuotaBytes: config.issueStorageQuotaBytes,
      newsletterQuotaBytes: config.newsletterQuotaBytes,
      newsletterReceiving: config.inboundSmtpPort !== undefined,
      recipientsPerDay: config.recipientsPerDay,
      queue: jobs,
      site: config.site,
      changelogMarkdown: await readChangelog(files.changelogFile, logger),
    });
    await jobs.start(modules.jobs);
    cleanups.push({ name: 'the job queue', run: () => jobs.stop(budget.leftMs()) });
    if (config.roles.includes('scheduler'))
      cleanups.push({ name: 'the scheduler', run: modules.scheduler() });

    let http: HttpServer | undefined;
    if (config.roles.includes('api')) {
      http = await buildHttpServer({
        logger,
        appUrl: config.appUrl,
        trustProxy: config.trustProxy,
        apiDocs: config.apiDocs,
        webDistDir: files.webDistDir,
        health: {
          databaseKind: database.kind,
          roles: config.roles,
          pingDatabase: () => pingDatabase(database),
          pingQueue: () => jobs.ping(),
        },
        apiPlugins: modules.routes,
        pageHeadFor: modules.pageHeadFor,
        // The tests check each answer against its zod schema; the program only writes it.
        checkResponses: false,
        maxRequestsInFlight: config.maxRequestsInFlight,
        drainTimeLeftMs: budget.leftMs,
      });
      await http.listen({ port: config.port, host: config.host });
      const server = http;
      cleanups.push({ name: 'the HTTP server', run: () => server.close() });
    }
    let inboundPort: number | undefined;
    if (config.roles.includes('inbound') && config.inboundSmtpPort !== undefined) {
      const inbound = createInboundSmtpServer({
        db: database.db,
        clock,
        logger,
        mailDomain: config.mailDomain,
        quotaBytes: config.newsletterQuotaBytes,
        maxMessageBytes: config.inbound.maxMessageBytes,
        maxClients: config.inbound.maxClients,
        connectionsPerMinute: config.inbound.connectionsPerMinute,
        tls: config.inbound.tls,
        resolver: systemDnsResolver(),
        // Confirmations, forwarding codes and reply-to-confirm lists are pinned on the Newsletters page.
        classify: classifyParsedMessage,
      });
      inboundPort = await inbound.listen(config.inboundSmtpPort, config.inbound.host);
      // Pushed after the database's cleanup, so it runs before it: sessions under way finish storing first.
      cleanups.push({ name: 'the newsletter SMTP server', run: () => inbound.close(budget.leftMs()) });
    }
    const address = http?.server.address();
    const url = address && typeof address === 'object' ? `http://${config.host}:${address.port}` : undefined;
    logger.info({ roles: config.roles, database: database.kind, url, inboundPort }, 'Digest started');
    return { url, inboundPort, database, stop, stoppingAt: () => stoppingAt };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
