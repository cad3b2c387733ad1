import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { embeddedDatabase, openDatabase, postgresDatabase } from './client';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('the PostgreSQL pool (TEST_DATABASE_URL)', () => {
  it('survives an idle connection the server closes: it is reported, dropped and replaced', async () => {
    const lost: Error[] = [];
    const handle = postgresDatabase(adminUrl ?? '', 1, { onIdleError: (error) => lost.push(error) });
    try {
      const { rows } = await handle.pool.query<{ pid: number }>('select pg_backend_pid() as pid');
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
      await admin.end();
      await expect.poll(() => lost.length).toBe(1);
      const again = await handle.pool.query('select 1 as one');
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });
});

describe('the embedded database', () => {
  it('opens with a 32 MB buffer pool and PGlite’s own settings otherwise (one process, no fsync of its own)', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-client-'));
    const handle = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      if (handle.kind !== 'embedded') throw new Error('expected the embedded database');
      const { pglite } = handle;
      const show = async (name: string) =>
        Object.values((await pglite.query<Record<string, string>>(`show ${name}`)).rows[0] ?? {})[0];
      expect(await show('shared_buffers')).toBe('32MB');
      expect(await show('max_worker_processes')).toBe('0');
      expect(await show('search_path')).toBe('public');
    } finally {
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('gives the event loop a turn before each statement, so timers and sockets are served between them', async () => {
    const handle = embeddedDatabase(await PGlite.create());
    try {
      const statements = [
        () => handle.pglite.query('select 1'),
        () => handle.pglite.exec('select 1'),
        () => handle.pglite.transaction((tx) => tx.query('select 1')),
        () => handle.db.execute(sql`select 1`),
        () => handle.db.transaction((tx) => tx.execute(sql`select 1`)),
      ];
      for (const statement of statements) {
        // Without the turn, a chain of awaited statements runs as microtasks only: the callback waits for it.
        let ranBefore: number | undefined;
        let done = 0;
        setImmediate(() => {
          ranBefore = done;
        });
        for (let i = 0; i < 20; i++) {
          await statement();
          done += 1;
        }
        expect(ranBefore).toBe(0);
      }
    } finally {
      await handle.close();
    }
  });
});
