import type { Database } from './client';

/**
 * A query drizzle builds once per database instead of at every call, for the statements every delivery or
 * build runs: building one (walking its columns, joins and conditions into SQL text) was ≈ 12 % of a
 * worker's CPU in a burst. `build` makes the prepared query with `sql.placeholder`s for its values; each
 * database (the application's, a test's) gets its own. A transaction's handle counts as a database of its
 * own (correct, but built again for each transaction), so it is meant for statements run outside them.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const prepared = new WeakMap<Database, Query>();
  return (db) => {
    let query = prepared.get(db);
    if (!query) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}
