import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { type DatabaseHandle, embeddedDatabase } from '#server/db/client';
import { MIGRATIONS_FOLDER, migrateDatabase } from '#server/db/migrate';
import { createPostgresDatabase } from './test-database';

interface Journal {
  entries: { tag: string }[];
}

/**
 * An upgrade test builds a database at an old migration and then migrates it: on PGlite, while CI runs both
 * databases' suites side by side on two cores, that took longer than the default 20 s (two such tests timed out in one CI run; 16 s in another).
 */
export const UPGRADE_TEST_TIMEOUT_MS = 60_000;

/**
 * A database as an earlier release left it: migrated up to and including `lastTag` (e.g.
 * `0007_released_usernames`), on the same engine as the rest of the run. Write the old release's rows with
 * plain SQL (the schema objects describe today's tables), then `upgrade()` applies the newer migrations
 * the way a new release does on start, so a test can check that every row survived and was carried over.
 */
export async function createDatabaseAt(lastTag: string) {
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
  ) as Journal;
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`No migration is tagged ${lastTag}`);

  const olderFolder = await mkdtemp(path.join(tmpdir(), 'digest-migrations-'));
  await cp(MIGRATIONS_FOLDER, olderFolder, { recursive: true });
  await writeFile(
    path.join(olderFolder, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }),
  );

  const handle = await emptyDatabase();
  await migrateDatabase(handle, olderFolder);
  await rm(olderFolder, { recursive: true, force: true });
  return {
    handle,
    db: handle.db,
    /** Runs a query on the old schema (the drizzle schema objects already describe the new one). */
    sql: (text: string, values: unknown[] = []) => rawQuery(handle, text, values),
    upgrade: () => migrateDatabase(handle),
    close: () => handle.close(),
  };
}

async function rawQuery(handle: DatabaseHandle, text: string, values: unknown[]) {
  if (handle.kind === 'embedded') return (await handle.pglite.query(text, values)).rows;
  return (await handle.pool.query(text, values)).rows;
}

async function emptyDatabase(): Promise<DatabaseHandle> {
  const template = inject('testDatabase');
  if (template.kind === 'embedded') return embeddedDatabase(await PGlite.create());
  return createPostgresDatabase({
    adminUrl: template.adminUrl,
    name: `${template.prefix}_up_${randomBytes(4).toString('hex')}`,
    poolSize: 2,
  });
}
