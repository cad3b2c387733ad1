import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { type Config, ConfigError, loadConfig } from './app/config';
import { startDigest } from './app/start';
import { openDatabase } from './db/client';
import { acquireDataDirLock, DataDirInUseError } from './db/data-dir-lock';
import { migrateDatabase } from './db/migrate';
import { createLogger } from './platform/logger';

// src/main.ts and dist/main.js sit at the same depth, so these find apps/web/dist and the repository's
// CHANGELOG.md from both.
const SERVED_FILES = {
  webDistDir: fileURLToPath(new URL('../../web/dist', import.meta.url)),
  changelogFile: fileURLToPath(new URL('../../../CHANGELOG.md', import.meta.url)),
};

/**
 * V8 lets the heap grow to up to four times what a collection left alive before it collects again; a
 * burst's garbage (every issue's HTML, several times over) then doubled the process's peak. 30 % keeps
 * the peak near what is alive, for a few more collections (docs/decisions/0008). V8 reads the factor at
 * each collection, so setting it at start is enough.
 */
setFlagsFromString('--heap-growing-percent=30');

function fail(message: string): never {
  console.error(`digest: ${message}`);
  process.exit(1);
}

async function migrateOnly(config: Config) {
  let lock: ReturnType<typeof acquireDataDirLock> | undefined;
  try {
    lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) fail(error.message);
    throw error;
  }
  const database = await openDatabase(config);
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
    lock?.release();
  }
}

async function main() {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });

  if (process.argv.includes('--migrate-only')) {
    await migrateOnly(config);
    logger.info({ database: config.databaseUrl ? 'postgres' : 'embedded' }, 'migrations applied');
    return;
  }

  // Handlers go in before the server starts: a signal that arrives while it starts (or just after
  // it prints its address) must still stop it cleanly, never kill it mid-write.
  let running: Awaited<ReturnType<typeof startDigest>> | undefined;
  let stopping = false;
  const stop = (started: NonNullable<typeof running>) => {
    const deadline = setTimeout(() => {
      logger.error({ waitingFor: started.stoppingAt() }, 'stop took too long: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    deadline.unref();
    started.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping: finishing running requests and jobs');
    if (running) stop(running);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    running = await startDigest(config, logger, SERVED_FILES);
  } catch (error) {
    if (error instanceof DataDirInUseError) fail(error.message);
    logger.fatal({ err: error }, 'Digest could not start');
    process.exit(1);
  }
  if (stopping) return stop(running);
  if (running.url) console.log(`Digest is running at ${running.url}`);
  if (running.inboundPort !== undefined) {
    console.log(`Receiving newsletters for @${config.mailDomain} by SMTP on port ${running.inboundPort}`);
  }
}

await main();
