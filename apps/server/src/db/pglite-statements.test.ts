import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparingEachStatement } from './pglite-statements';
import { isUniqueViolation } from './unique-violation';

const TABLE = `create table things (
  id int primary key, name text not null, at timestamptz, doc jsonb, bytes bytea, tags text[], big bigint
)`;

describe('PGlite with each statement prepared', () => {
  let prepared: PGlite;
  let plain: PGlite;

  beforeAll(async () => {
    [prepared, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
    preparingEachStatement(prepared);
    for (const database of [prepared, plain]) await database.exec(TABLE);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([prepared?.close(), plain?.close()]);
  });

  const preparedNames = async (database: PGlite) =>
    (await database.query<{ name: string }>('select name from pg_prepared_statements')).rows.map(
      (row) => row.name,
    );

  it('writes and reads every kind of value as PGlite does, and keeps one prepared statement per text', async () => {
    const values = [
      1,
      'first',
      new Date('2026-11-27T10:00:00Z'),
      { a: [1, 2], b: 'two' },
      new Uint8Array([0, 1, 255]),
      ['x', 'y, z', 'quote"d'],
      9007199254740993n,
    ];
    const insert =
      'insert into things (id, name, at, doc, bytes, tags, big) values ($1, $2, $3, $4, $5, $6, $7)';
    const select = 'select * from things where id = $1';
    for (const database of [prepared, plain]) await database.query(insert, values);
    for (const rowMode of ['object', 'array'] as const) {
      const expected = await plain.query(select, [1], { rowMode });
      expect(await prepared.query(select, [1], { rowMode })).toEqual(expected);
      expect(await prepared.query(select, [1], { rowMode })).toEqual(expected);
    }
    // The caller's parsers still apply (Drizzle reads dates as text this way).
    const asText = { parsers: { 1184: (text: string) => `text ${text}` }, rowMode: 'array' as const };
    expect((await prepared.query('select at from things where id = $1', [1], asText)).rows).toEqual([
      ['text 2026-11-27 10:00:00+00'],
    ]);
    expect(await preparedNames(prepared)).toHaveLength(3);
    expect(await preparedNames(plain)).toHaveLength(0);
  });

  it("keeps PostgreSQL's errors as PGlite gives them, and answers the next statement", async () => {
    const clash = [1, 'again'];
    const insert = 'insert into things (id, name) values ($1, $2)';
    const error = await prepared.query(insert, clash).catch((caught) => caught);
    const expected = await plain.query(insert, clash).catch((caught) => caught);
    expect(error).toMatchObject({ code: '23505', constraint: 'things_pkey', message: expected.message });
    expect(isUniqueViolation(error, 'things_pkey')).toBe(true);
    await expect(prepared.query('select * from nowhere where id = $1', [1])).rejects.toMatchObject({
      code: '42P01',
    });
    await expect(
      prepared.query('select id from things where id = $1', ['not a number']),
    ).rejects.toMatchObject({
      code: '22P02',
    });
    expect((await prepared.query('select count(*)::int as n from things where id > $1', [0])).rows).toEqual([
      { n: 1 },
    ]);
  });

  it('runs prepared statements inside transactions: committed, rolled back, and after an error', async () => {
    const insert = 'insert into things (id, name) values ($1, $2)';
    const before = (await preparedNames(prepared)).length;
    await prepared.transaction(async (tx) => {
      await tx.query(insert, [2, 'kept']);
      await tx.query('update things set name = $1 where id = $2', ['kept, renamed', 2]);
    });
    // The transaction's own statement was prepared too.
    expect(await preparedNames(prepared)).toHaveLength(before + 1);
    // A statement first prepared in a transaction that rolls back stays prepared (PostgreSQL's prepared
    // statements are not transactional), so its later uses still find it.
    const firstInRollback = 'insert into things (id, name) values ($1, $2) returning id';
    await expect(
      prepared.transaction(async (tx) => {
        await tx.query(firstInRollback, [3, 'dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await prepared.query(firstInRollback, [3, 'kept this time'])).rows).toEqual([{ id: 3 }]);
    await prepared.query('delete from things where id = $1', [3]);
    await expect(
      prepared.transaction(async (tx) => {
        await tx.query(insert, [4, 'dropped too']);
        await tx.query(insert, [1, 'clash']).catch(() => {});
        await tx.query(insert, [5, 'after the error']);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    const rows = await prepared.query('select id, name from things where id > $1 order by id', [0]);
    expect(rows.rows).toEqual([
      { id: 1, name: 'first' },
      { id: 2, name: 'kept, renamed' },
    ]);
  });

  it('holds statements from outside a transaction until it ends', async () => {
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const transaction = prepared.transaction(async (tx) => {
      await tx.query('insert into things (id, name) values ($1, $2)', [6, 'in the transaction']);
      entered();
      await held;
      order.push('transaction ends');
    });
    // Asked once the transaction holds the database (after a fixed pause, a slow machine could start it late).
    await inside;
    const outside = prepared
      .query<{ n: number }>('select count(*)::int as n from things where id = $1', [6])
      .then((result) => order.push(`outside reads ${result.rows[0]?.n}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(['transaction ends', 'outside reads 1']);
  });

  it('tells listeners of a notification raised by a prepared statement', async () => {
    const heard: string[] = [];
    await prepared.listen('things_changed', (payload) => heard.push(payload));
    await prepared.query('select pg_notify($1, $2)', ['things_changed', 'one']);
    expect(heard).toEqual(['one']);
  });

  it('answers from a prepared statement after its table changed', async () => {
    const select = 'select id, name from things where id = $1';
    expect((await prepared.query(select, [1])).rows).toEqual([{ id: 1, name: 'first' }]);
    await prepared.exec('alter table things add column extra text');
    await prepared.exec(`update things set name = 'renamed' where id = 1`);
    expect((await prepared.query(select, [1])).rows).toEqual([{ id: 1, name: 'renamed' }]);
  });
});
