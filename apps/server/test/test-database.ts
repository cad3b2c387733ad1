import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, embeddedDatabase, postgresDatabase } from '#server/db/client';

export type TestDatabaseTemplate =
  | { kind: 'embedded'; file: string }
  | { kind: 'postgres'; adminUrl: string; templateName: string; prefix: string };

/**
 * An isolated, migrated database for one test file: a copy of the template the global setup
 * migrated once — PGlite in memory by default, a new PostgreSQL database when TEST_DATABASE_URL is set.
 * `close()` throws the copy away.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const template = inject('testDatabase');
  if (template.kind === 'embedded') {
    const dump = new Blob([await readFile(template.file)]);
    return embeddedDatabase(await PGlite.create({ loadDataDir: dump }));
  }
  return createPostgresDatabase({
    adminUrl: template.adminUrl,
    name: `${template.prefix}_${randomBytes(4).toString('hex')}`,
    copyOf: template.templateName,
    poolSize: 4,
  });
}

/**
 * A new PostgreSQL database on the test server: a copy of the database `copyOf`, or empty without it.
 * `close()` drops it.
 */
export async function createPostgresDatabase(options: {
  adminUrl: string;
  name: string;
  copyOf?: string;
  poolSize: number;
}): Promise<DatabaseHandle> {
  const { adminUrl, name, copyOf } = options;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${copyOf ? ` template "${copyOf}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = postgresDatabase(url.href, options.poolSize);
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
