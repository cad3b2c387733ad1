import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresDatabase } from './client';

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
