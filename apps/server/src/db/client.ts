import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type DatabaseChanges, embeddedChanges, postgresChanges, unheardChanges } from './database-changes';
import { preparingEachStatement } from './pglite-statements';
import { PreparingClient } from './prepared-statements';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows a statement written in SQL answers (`db.execute`: both drivers answer `{ rows }`). */
export async function rowsOf<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** The database in either mode, with what the rest of the program needs to know about it. */
export type EmbeddedDatabaseHandle = {
  kind: 'embedded';
  db: Database;
  pglite: PGlite;
  changes: DatabaseChanges;
  close(): Promise<void>;
};
export type PostgresDatabaseHandle = {
  kind: 'postgres';
  db: Database;
  pool: pg.Pool;
  connectionString: string;
  changes: DatabaseChanges;
  close(): Promise<void>;
};
export type DatabaseHandle = EmbeddedDatabaseHandle | PostgresDatabaseHandle;

/**
 * PGlite runs on the event loop's own thread and answers through promises alone, so statements awaited one
 * after another never give the loop a turn: in a burst, builds queued back to back ran as one chain of
 * microtasks for minutes, and meanwhile no timer fired and no socket was read (the SMTP connections timed
 * out, deliveries stalled, the API did not answer). Each statement, transaction or script now starts on a
 * turn of its own, as one sent to PostgreSQL waits for its socket. PGlite's transactions run their
 * statements through private methods, so a transaction yields once, before it takes the database.
 */
function yieldingEachStatement(pglite: PGlite): PGlite {
  for (const method of ['query', 'exec', 'transaction'] as const) {
    const run = pglite[method].bind(pglite) as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(pglite, method, {
      value: async (...args: unknown[]) => {
        await nextTurn();
        return run(...args);
      },
    });
  }
  return pglite;
}

/**
 * The embedded database on `pglite`, which from then on prepares each statement with parameters and gives
 * the event loop a turn before each statement.
 */
export function embeddedDatabase(pglite: PGlite): EmbeddedDatabaseHandle {
  yieldingEachStatement(preparingEachStatement(pglite));
  return {
    kind: 'embedded',
    db: drizzlePglite(pglite, { schema }) as unknown as Database,
    pglite,
    changes: embeddedChanges(pglite),
    close: () => pglite.close(),
  };
}

export function postgresDatabase(
  connectionString: string,
  poolSize = 10,
  options: {
    /** Told when an idle connection is lost (the pool replaces it). */
    onIdleError?: (error: Error) => void;
    /**
     * Whether this process hears what other writers change (`changes`). Only a process that keeps
     * something on their strength needs to: every listening connection costs the database a signal and
     * a message at each commit that notifies (each stored issue), whether or not anyone reads them.
     */
    hearChanges?: boolean;
  } = {},
): PostgresDatabaseHandle {
  const { onIdleError = () => {}, hearChanges = true } = options;
  const changes = hearChanges
    ? postgresChanges(connectionString, (error) =>
        onIdleError(error ?? new Error('the connection listening for changes ended')),
      )
    : undefined;
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    application_name: 'digest',
    Client: PreparingClient,
    ...(changes ? { onConnect: (client: pg.ClientBase) => changes.listenOn(client) } : {}),
  });
  // An idle connection the server closed (a restart, a failover, an administrator) is dropped by the
  // pool and the next query opens another; without a listener its 'error' would end the process.
  pool.on('error', onIdleError);
  return {
    kind: 'postgres',
    db: drizzlePostgres(pool, { schema }) as unknown as Database,
    pool,
    connectionString,
    changes: changes ?? unheardChanges(),
    close: async () => {
      await changes?.close();
      await pool.end();
    },
  };
}

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite stored in DATA_DIR/pglite. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Told when an idle PostgreSQL connection is lost (the pool replaces it). */
  onIdleError?: (error: Error) => void;
  /** On PostgreSQL, whether this process hears other writers' changes (`postgresDatabase`); default yes. */
  hearChanges?: boolean;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const handle = postgresDatabase(options.databaseUrl, 10, options);
    await handle.pool.query('select 1');
    return handle;
  }
  const directory = path.join(options.dataDir, 'pglite');
  await mkdir(directory, { recursive: true });
  return embeddedDatabase(await PGlite.create(directory, { startParams: EMBEDDED_START_PARAMS }));
}

/**
 * PGlite's own start options with a 32 MB buffer pool instead of PostgreSQL's 128 MB: PGlite's memory
 * (WebAssembly's, never given back) was the largest part of the embedded server's peak once a burst had
 * filled the pool with pages the operating system caches anyway (docs/decisions/0008).
 */
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

export async function pingDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'embedded') await handle.pglite.query('select 1');
  else await handle.pool.query('select 1');
}
