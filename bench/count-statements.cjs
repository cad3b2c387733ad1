// Preloaded (`node --require`) into each server process of a PostgreSQL burst: counts the statements the
// process sends through node-postgres (drizzle's queries, BEGIN and COMMIT, pg-boss's) and writes the count
// to $STATEMENTS_FILE when the process exits. pg_stat_statements would count them on the server's side but
// needs a restart of the shared PostgreSQL with it preloaded; one counter per query costs nothing measurable.
const { writeFileSync } = require('node:fs');
const pg = require('pg');

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  return query.apply(this, args);
};
process.on('exit', () => {
  if (process.env.STATEMENTS_FILE) writeFileSync(process.env.STATEMENTS_FILE, String(statements));
});
