import { describe, expect, it } from 'vitest';
import type { Database } from './client';
import { preparedPerDatabase } from './prepared-queries';

describe('preparedPerDatabase', () => {
  it('builds a query once for each database and answers that one again', () => {
    const built: Database[] = [];
    const prepared = preparedPerDatabase((db) => {
      built.push(db);
      return { preparedOn: db };
    });
    const one = {} as Database;
    const other = {} as Database;
    const first = prepared(one);
    expect(prepared(one)).toBe(first);
    expect(prepared(other).preparedOn).toBe(other);
    expect(built).toEqual([one, other]);
  });
});
