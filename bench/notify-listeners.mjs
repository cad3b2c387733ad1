/**
 * What a commit that notifies costs PostgreSQL for each connection listening on its channel: `pgbench`
 * commits `select pg_notify(…)` from 2 clients for DURATION seconds while this process holds K listening
 * connections (as many as a Digest process's pool and its own listener), for each K in LISTENERS.
 *
 *   node bench/notify-listeners.mjs
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test LISTENERS=0,1,11,22,33 DURATION=15 node bench/notify-listeners.mjs
 *
 * Needs `pgbench` (Debian: postgresql-client). The listeners are not read while pgbench runs (its call
 * blocks this process), so the figures are PostgreSQL's side alone: signalling each listening backend and
 * each of them reading the queue and writing the notification to its socket.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const listeners = (process.env.LISTENERS ?? '0,1,11,22,33').split(',').map(Number);
const duration = process.env.DURATION ?? '15';
if (!listeners.every((count) => Number.isInteger(count) && count >= 0 && count <= 90)) {
  throw new Error(`LISTENERS must be whole numbers from 0 to 90, comma-separated: ${process.env.LISTENERS}`);
}
if (!/^[1-9]\d*$/.test(duration)) throw new Error(`DURATION must be a whole number of seconds: ${duration}`);
try {
  execFileSync('pgbench', ['--version']);
} catch {
  throw new Error('pgbench not found: install it (Debian: apt-get install -y postgresql-client)');
}
const script = path.join(mkdtempSync(path.join(os.tmpdir(), 'notify-')), 'notify.sql');
writeFileSync(script, "begin; select pg_notify('bench_notify_listeners', 'x'); commit;\n");
/** 2 clients on 2 threads, no vacuum first, for `duration` seconds. */
const PGBENCH_ARGS = ['-n', '-c', '2', '-j', '2', '-T', duration, '-f', script];

console.log('| listening connections | notifying commits/s (2 clients) | machine time per commit |');
console.log('|---|---|---|');
for (const count of listeners) {
  const clients = [];
  for (let i = 0; i < count; i += 1) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('listen bench_notify_listeners');
    clients.push(client);
  }
  const out = execFileSync('pgbench', [...PGBENCH_ARGS, url]).toString();
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  // Two cores busy for the whole run: each commit took 2 / tps of the machine.
  console.log(`| ${count} | ${tps.toFixed(0)} | ${((2 / tps) * 1000).toFixed(2)} ms |`);
  for (const client of clients) await client.end();
}
