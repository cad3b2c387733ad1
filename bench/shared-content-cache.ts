/**
 * The content cache's second tier (the `source_cache` table), against a local HTTP server: what a miss
 * pays to write the row, and what another process pays to answer from a fresh row instead of fetching.
 *
 *   npx tsx bench/shared-content-cache.ts                                           # PGlite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/shared-content-cache.ts
 *
 * With TEST_DATABASE_URL it works in a scratch database it creates and drops.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import pino from 'pino';
import { type DatabaseHandle, embeddedDatabase, postgresDatabase } from '#server/db/client';
import { migrateDatabase } from '#server/db/migrate';
import { type ContentCache, createMemoryContentCache } from '#server/platform/safe-fetch/content-cache';
import { createSafeFetch } from '#server/platform/safe-fetch/safe-fetch';
import { createSharedContentCache } from '#server/platform/safe-fetch/shared-content-cache';
import { createProviderHttp } from '#server/sources/create-provider-http';

const SEQUENTIAL = 300;
/** Time the fake provider takes to think, as in bench/content-cache.ts. */
const UPSTREAM_DELAY_MS = 20;

const feed = JSON.stringify({
  items: Array.from({ length: 400 }, (_, i) => ({ id: i, title: 'x'.repeat(480) })),
});
let upstream = 0;
const server = http.createServer((_, response) => {
  upstream++;
  setTimeout(() => {
    const headers = { 'content-type': 'application/json', etag: '"v1"', 'cache-control': 'max-age=600' };
    response.writeHead(200, headers).end(feed);
  }, UPSTREAM_DELAY_MS);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const adminUrl = process.env.TEST_DATABASE_URL;
const scratch = `bench_source_cache_${process.pid}`;
async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}
let database: DatabaseHandle;
if (adminUrl) {
  await admin(`create database "${scratch}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${scratch}`;
  database = postgresDatabase(url.href, 4);
} else {
  database = embeddedDatabase(await PGlite.create());
}
await migrateDatabase(database);

const logger = pino({ level: 'silent' });
const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
const providerHttp = (cache: ContentCache) => createProviderHttp({ safeFetch, cache });
/** A new process: an empty memory tier over the shared table. */
const newProcess = () => providerHttp(createSharedContentCache({ db: database.db, logger }));

async function sequential(label: string, run: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(1);
  const mean = (times.reduce((sum, t) => sum + t, 0) / times.length).toFixed(1);
  console.log(`${label.padEnd(50)} mean ${mean} / p50 ${at(0.5)} / p99 ${at(0.99)} ms`);
}

console.log(
  `${database.kind}, feed ${(feed.length / 1024).toFixed(0)} KiB, upstream delay ${UPSTREAM_DELAY_MS} ms, Node ${process.version}`,
);
const memoryOnly = providerHttp(createMemoryContentCache());
await sequential(`miss, memory only x${SEQUENTIAL}`, (i) =>
  memoryOnly.text({ provider: 'bench', url: `${base}/memory/${i}` }),
);
const first = newProcess();
await sequential(`miss, two tiers (fetch + row write) x${SEQUENTIAL}`, (i) =>
  first.text({ provider: 'bench', url: `${base}/shared/${i}` }),
);
upstream = 0;
await sequential(`another process, fresh row (row read) x${SEQUENTIAL}`, (i) =>
  newProcess().text({ provider: 'bench', url: `${base}/shared/${i}` }),
);
console.log(`upstream requests while other processes read the rows: ${upstream}`);

await database.close();
if (adminUrl) await admin(`drop database if exists "${scratch}" with (force)`);
server.close();
