import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#server-test/test-database';
import { type DatabaseHandle, postgresDatabase } from './client';
import { CHANGE_CHANNELS } from './database-changes';

let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function until(condition: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function recorder() {
  const heardPayloads: string[] = [];
  let missed = 0;
  return {
    handlers: { onChange: (payload: string) => heardPayloads.push(payload), onMissed: () => missed++ },
    payloads: () => heardPayloads,
    missed: () => missed,
  };
}

describe('database changes', () => {
  it('tells a change committed by this process before the commit returns', async () => {
    handle = await createTestDatabase();
    const seen = recorder();
    const subscription = handle.changes.subscribe(CHANGE_CHANNELS.digestList, seen.handlers);
    await until(subscription.heard, 'listening');
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify(${CHANGE_CHANNELS.digestList}, 'own commit')`);
    });
    expect(seen.payloads()).toContain('own commit');
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'a process that hears no changes listens on none of its connections and keeps nothing on their strength',
    async () => {
      handle = await createTestDatabase();
      if (handle.kind !== 'postgres') throw new Error('PostgreSQL only');
      const listeningOf = async (database: DatabaseHandle) => {
        if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
        const { rows } = await database.pool.query('select pg_listening_channels() as channel');
        return rows.map((row) => row.channel);
      };
      const seen = recorder();
      expect(await listeningOf(handle)).toEqual([CHANGE_CHANNELS.digestList]);

      const deaf = postgresDatabase(handle.connectionString, 2, { hearChanges: false });
      try {
        const subscription = deaf.changes.subscribe(CHANGE_CHANNELS.digestList, seen.handlers);
        expect(await listeningOf(deaf)).toEqual([]);
        await deaf.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_notify(${CHANGE_CHANNELS.digestList}, 'unheard')`);
        });
        expect(subscription.heard()).toBe(false);
        expect(seen.payloads()).toEqual([]);
        const { rows } = await handle.pool.query(
          `select count(*)::int as n from pg_stat_activity
           where application_name = 'digest-changes' and datname = current_database()`,
        );
        expect(rows[0]?.n).toBe(0);
      } finally {
        await deaf.close();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'hears other connections, tells a lost listening connection as missed, and listens again',
    async () => {
      handle = await createTestDatabase();
      if (handle.kind !== 'postgres') throw new Error('PostgreSQL only');
      const seen = recorder();
      const subscription = handle.changes.subscribe(CHANGE_CHANNELS.digestList, seen.handlers);
      await until(subscription.heard, 'listening');

      const other = new pg.Client({ connectionString: handle.connectionString });
      await other.connect();
      try {
        await other.query(`select pg_notify($1, 'from elsewhere')`, [CHANGE_CHANNELS.digestList]);
        await until(() => seen.payloads().includes('from elsewhere'), 'a change of another connection');

        await other.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = 'digest-changes' and datname = current_database()`,
        );
        await until(() => seen.missed() > 0, 'the lost connection told');
        expect(subscription.heard()).toBe(false);
        await until(subscription.heard, 'listening again');

        await other.query(`select pg_notify($1, 'after the loss')`, [CHANGE_CHANNELS.digestList]);
        await until(() => seen.payloads().includes('after the loss'), 'a change after listening again');
      } finally {
        await other.end();
      }
    },
  );
});
