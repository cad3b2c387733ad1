import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type DatabaseChanges, embeddedChanges, postgresChanges } from './database-changes';
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

export function embeddedDatabase(pglite: PGlite): EmbeddedDatabaseHandle {
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
  onIdleError: (error: Error) => void = () => {},
): PostgresDatabaseHandle {
  const changes = postgresChanges(connectionString, (error) =>
    onIdleError(error ?? new Error('the connection listening for changes ended')),
  );
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    application_name: 'digest',
    Client: PreparingClient,
    onConnect: (client) => changes.listenOn(client),
  });
  // An idle connection the server closed (a restart, a failover, an administrator) is dropped by the
  // pool and the next query opens another; without a listener its 'error' would end the process.
  pool.on('error', onIdleError);
  return {
    kind: 'postgres',
    db: drizzlePostgres(pool, { schema }) as unknown as Database,
    pool,
    connectionString,
    changes,
    close: async () => {
      await changes.close();
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
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const handle = postgresDatabase(options.databaseUrl, 10, options.onIdleError);
    await handle.pool.query('select 1');
    return handle;
  }
  const directory = path.join(options.dataDir, 'pglite');
  await mkdir(directory, { recursive: true });
  return embeddedDatabase(await PGlite.create(directory));
}

export async function pingDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'embedded') await handle.pglite.query('select 1');
  else await handle.pool.query('select 1');
}
