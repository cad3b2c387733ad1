import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { embeddedDatabase, postgresDatabase } from './client';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('the PostgreSQL pool (TEST_DATABASE_URL)', () => {
  it('survives an idle connection the server closes: it is reported, dropped and replaced', async () => {
    const lost: Error[] = [];
    const handle = postgresDatabase(adminUrl ?? '', 1, (error) => lost.push(error));
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
