import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPglite, PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { embeddedDatabase, postgresDatabase } from '#server/db/client';
import { migrateDatabase } from '#server/db/migrate';
import type { TestDatabaseTemplate } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseTemplate;
  }
}

/** The job queue's schema belongs in the template too, so no test file waits for pg-boss to install it. */
async function installJobSchema(options: ConstructorParameters<typeof PgBoss>[0]) {
  const boss = new PgBoss(
    typeof options === 'string' ? options : { ...options, supervise: false, schedule: false },
  );
  await boss.start();
  await boss.stop({ graceful: false });
}

async function embeddedTemplate(): Promise<{ template: TestDatabaseTemplate; teardown(): Promise<void> }> {
  const pglite = await PGlite.create();
  await migrateDatabase(embeddedDatabase(pglite));
  await installJobSchema({ db: fromPglite(pglite), backend: 'pglite', supervise: false, schedule: false });
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'digest-test-template-'));
  const file = path.join(folder, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return {
    template: { kind: 'embedded', file },
    teardown: () => rm(folder, { recursive: true, force: true }),
  };
}

async function postgresTemplate(adminUrl: string) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const prefix = `digest_test_${runId}`;
  const templateName = `${prefix}_template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${templateName}"`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${templateName}`;
  const handle = postgresDatabase(templateUrl.href, 1);
  await migrateDatabase(handle);
  await handle.close();
  await installJobSchema({ connectionString: templateUrl.href, max: 1 });
  return {
    template: { kind: 'postgres', adminUrl, templateName, prefix } satisfies TestDatabaseTemplate,
    async teardown() {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
      await admin.end();
    },
  };
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const { template, teardown } = adminUrl ? await postgresTemplate(adminUrl) : await embeddedTemplate();
  project.provide('testDatabase', template);
  return teardown;
}
