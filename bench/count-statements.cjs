// Preloaded (`node --require`) into each server process of a PostgreSQL burst: counts the statements the
// process sends through node-postgres (drizzle's queries, BEGIN and COMMIT, pg-boss's) and writes the count
// to $STATEMENTS_FILE when the process exits, and to $STATEMENTS_FILE.json each statement's text with its
// count and the milliseconds from sending it to its answer (wall time: the server's work, the wire and any
// wait for a lock or a busy CPU). pg_stat_statements would count them on the server's side but needs a
// restart of the shared PostgreSQL with it preloaded; one counter per query costs nothing measurable.
const { writeFileSync } = require('node:fs');
const pg = require('pg');

let statements = 0;
/** @type {Map<string, { count: number; ms: number }>} */
const byText = new Map();

function textOf(args) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first?.text ?? '');
  return text.replace(/\s+/g, ' ').trim().slice(0, 160);
}

function record(text, started) {
  const entry = byText.get(text) ?? { count: 0, ms: 0 };
  entry.count += 1;
  entry.ms += Number(process.hrtime.bigint() - started) / 1e6;
  byText.set(text, entry);
}

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  const text = textOf(args);
  const started = process.hrtime.bigint();
  const callbackAt = args.findIndex((arg) => typeof arg === 'function');
  if (callbackAt >= 0) {
    const callback = args[callbackAt];
    args[callbackAt] = function timed(...results) {
      record(text, started);
      return callback.apply(this, results);
    };
    return query.apply(this, args);
  }
  const result = query.apply(this, args);
  if (result && typeof result.then === 'function') {
    result.then(
      () => record(text, started),
      () => record(text, started),
    );
  }
  return result;
};
process.on('exit', () => {
  if (!process.env.STATEMENTS_FILE) return;
  writeFileSync(process.env.STATEMENTS_FILE, String(statements));
  writeFileSync(`${process.env.STATEMENTS_FILE}.json`, JSON.stringify(Object.fromEntries(byText)));
});
