import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '#server-test/test-database';
import { type DatabaseHandle, rowsOf } from './client';
import { statementNamer, withStatementName } from './prepared-statements';

describe('withStatementName', () => {
  it('names a statement with parameters after its text, the same name for the same text', () => {
    const name = statementNamer();
    const [first] = withStatementName(['select $1::int', [1]], name) as [{ name: string; text: string }];
    const [again] = withStatementName([{ text: 'select $1::int' }, [2]], name) as [{ name: string }];
    const [other] = withStatementName(['select $1::text', ['a']], name) as [{ name: string }];
    expect(first).toEqual({ text: 'select $1::int', name: first.name });
    expect(again.name).toBe(first.name);
    expect(other.name).not.toBe(first.name);
  });

  it('keeps the rest of a query as it was: its values, options and callback', () => {
    const callback = () => {};
    const types = { getTypeParser: () => String };
    const args = withStatementName(
      [{ text: 'select $1', rowMode: 'array', types }, [1], callback],
      statementNamer(),
    );
    expect(args).toEqual([
      { text: 'select $1', rowMode: 'array', types, name: expect.any(String) },
      [1],
      callback,
    ]);
    const [inline] = withStatementName([{ text: 'select $1', values: [1] }], statementNamer()) as [object];
    expect(inline).toEqual({ text: 'select $1', values: [1], name: expect.any(String) });
  });

  it('leaves unnamed what has no parameters (BEGIN, COMMIT), a name given already, and cursors', () => {
    const name = statementNamer();
    for (const args of [
      ['begin'],
      ['select 1', []],
      [{ text: 'select 1' }],
      [{ text: 'select $1', name: 'mine' }, [1]],
      [{ text: 'select $1', values: [1], submit: () => {} }],
    ]) {
      expect(withStatementName(args, name)).toBe(args);
    }
  });

  it('names no new text past its limit, and goes on naming the texts it knows', () => {
    const name = statementNamer(2);
    const named = (text: string) => (withStatementName([text, [1]], name)[0] as { name?: string }).name;
    const first = named('select $1 as a');
    expect(named('select $1 as b')).toEqual(expect.any(String));
    expect(named('select $1 as c')).toBeUndefined();
    expect(named('select $1 as a')).toBe(first);
  });
});

describe.skipIf(inject('testDatabase').kind !== 'postgres')('the PostgreSQL pool', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  /** Runs every call on one connection, which a connection's prepared statements belong to. */
  async function onOneConnection<T>(use: (query: DatabaseHandle['db']) => Promise<T>) {
    if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
    return database.db.transaction(use);
  }

  it('prepares a statement with parameters once per connection and runs it from the cached plan', async () => {
    const text = 'select count(*)::int as n from users where email = $1';
    const statements = await onOneConnection(async (tx) => {
      for (let call = 0; call < 8; call += 1) {
        const [row] = await rowsOf<{ n: number }>(
          tx,
          sql`select count(*)::int as n from users where email = ${'a@example.com'}`,
        );
        expect(row?.n).toBe(0);
      }
      return rowsOf<{ generic_plans: number; custom_plans: number }>(
        tx,
        sql`select generic_plans::int, custom_plans::int from pg_prepared_statements where statement = ${text}`,
      );
    });
    // One statement for the eight calls; PostgreSQL plans it with its values five times, then reuses a plan.
    expect(statements).toHaveLength(1);
    expect(statements[0]?.custom_plans).toBe(5);
    expect(statements[0]?.generic_plans).toBe(3);
  });

  it('answers from a prepared statement after a migration changed the table it reads', async () => {
    await onOneConnection(async (tx) => {
      await tx.execute(sql`create table prepared_probe (id int primary key, label text)`);
      await tx.execute(sql`insert into prepared_probe values (1, 'before')`);
      const label = async () =>
        (await rowsOf<{ label: string }>(tx, sql`select label from prepared_probe where id = ${1}`))[0]
          ?.label;
      expect(await label()).toBe('before');
      await tx.execute(sql`alter table prepared_probe add column added text default 'new'`);
      await tx.execute(sql`update prepared_probe set label = 'after'`);
      expect(await label()).toBe('after');
      // It was the prepared statement that answered, both times (unnamed, this would prove nothing).
      const prepared = await rowsOf<{ calls: number }>(
        tx,
        sql`select (generic_plans + custom_plans)::int as calls from pg_prepared_statements
            where statement = ${'select label from prepared_probe where id = $1'}`,
      );
      expect(prepared).toEqual([{ calls: 2 }]);
      await tx.execute(sql`drop table prepared_probe`);
    });
  });
});
