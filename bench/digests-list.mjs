#!/usr/bin/env node
// GET /api/digests under load: a user with 50 digests, 100 connections, on the embedded database and on
// PostgreSQL, beside a bare Fastify JSON route measured in the same run.
//
//   node bench/digests-list.mjs                     builds the server (npm run build -w apps/server), then measures
//   SKIP_BUILD=1 DURATION=10 CONNECTIONS=100 node bench/digests-list.mjs
//   PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres   where the throw-away database is created
//
// The server is the real program (`node apps/server/dist/main.js`, all roles, LOG_LEVEL=warn) on a free
// port; autocannon runs in this process, the server in its own.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
const pg = serverRequire('pg');

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 100);
const DIGESTS = Number(process.env.DIGESTS ?? 50);
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The sources of a realistic digest: five blocks of different kinds, defaults filled by the server. */
const SOURCES = [
  { type: 'DATE' },
  {
    type: 'WEATHER',
    locationName: 'Warsaw, Poland',
    latitude: 52.23,
    longitude: 21.01,
    temperatureType: 'C',
  },
  { type: 'HACKER_NEWS' },
  { type: 'RSS', feedLink: 'https://feeds.bbci.co.uk/news/world/rss.xml', sourceName: 'BBC News – World' },
  { type: 'REDDIT', sourceName: 'programming' },
  { type: 'YOUTUBE', channelId: 'UCsBjURrPoezykLs9EqgamOA', channelName: 'Fireship', sourceName: 'Fireship' },
];

async function seed(base) {
  const credentials = {
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: 'bench passw0rd!',
  };
  const signup = await fetch(`${base}/api/auth/signup/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...credentials, confirmed: true }),
  });
  if (signup.status !== 202) throw new Error(`sign-up: ${signup.status} ${await signup.text()}`);
  // A sign-up starts no session (the mailed link does); the password signs in before the address is verified.
  const signin = await fetch(`${base}/api/auth/signin/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (signin.status !== 200) throw new Error(`sign-in: ${signin.status} ${await signin.text()}`);
  const { token } = await signin.json();
  const authorization = `Bearer ${token.accessToken}`;
  for (let i = 0; i < DIGESTS; i++) {
    const response = await fetch(`${base}/api/digests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({
        name: `Digest ${i + 1}`,
        scheduleType: ['daily', 'weekly', 'monthly'][i % 3],
        sources: SOURCES,
        subscribers: [`friend${i}a@example.com`, `friend${i}b@example.com`],
      }),
    });
    if (response.status !== 201)
      throw new Error(`create digest: ${response.status} ${await response.text()}`);
  }
  const list = await fetch(`${base}/api/digests`, { headers: { authorization } });
  const body = await list.text();
  const count = JSON.parse(body).digests.length;
  if (count !== DIGESTS) throw new Error(`expected ${DIGESTS} digests, got ${count}`);
  return { authorization, bytes: Buffer.byteLength(body) };
}

async function load(url, headers = {}) {
  // A short warm-up (JIT, connection pools), then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function measureServer(label, env) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startProcess(['apps/server/dist/main.js'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: base,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...env,
  });
  try {
    await waitFor(`${base}/api/health`);
    const { authorization, bytes } = await seed(base);
    const result = await load(`${base}/api/digests`, { authorization });
    return { label, ...result, bytes };
  } finally {
    await server.stop();
  }
}

async function measureBareFastify() {
  const port = await freePort();
  const fastifyUrl = pathToFileURL(serverRequire.resolve('fastify')).href;
  const script = `
    const { default: Fastify } = await import(${JSON.stringify(fastifyUrl)});
    const app = Fastify({ logger: false });
    app.get('/json', async () => ({ hello: 'world' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  const server = startProcess(['--input-type=module', '-e', script], {});
  try {
    await waitFor(`http://127.0.0.1:${port}/json`);
    const result = await load(`http://127.0.0.1:${port}/json`);
    return { label: 'bare Fastify `GET /json` (`{"hello":"world"}`)', ...result, bytes: 17 };
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!process.env.SKIP_BUILD) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'apps/server'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build -w apps/server failed');
  }
  const results = [];
  results.push(await measureBareFastify());

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-bench-'));
  try {
    results.push(await measureServer('`GET /api/digests`, embedded (PGlite)', { DATA_DIR: dataDir }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }

  const database = `digest_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${database}"`);
  const pgDataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-bench-pg-'));
  try {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${database}`;
    results.push(
      await measureServer('`GET /api/digests`, PostgreSQL', { DATABASE_URL: url.href, DATA_DIR: pgDataDir }),
    );
  } finally {
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
    await rm(pgDataDir, { recursive: true, force: true });
  }

  const cpu = os.cpus();
  console.log(
    `\n${DIGESTS} digests (6 sources, 2 subscribers each), ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up; ` +
      `${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}\n`,
  );
  console.log('| Measure | req/s | p50 | p99 | requests | non-2xx | errors | body |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.total} | ${r.non2xx} | ${r.errors} | ${(r.bytes / 1024).toFixed(1)} KiB |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
