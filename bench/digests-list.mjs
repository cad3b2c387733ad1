#!/usr/bin/env node
// GET /api/digests under load: a user with 50 digests and a user with none, 100 connections, on the embedded
// database and on PostgreSQL, beside a bare Fastify JSON route measured in the same run.
//
//   node bench/digests-list.mjs                     builds the server (npm run build -w apps/server), then measures
//   SKIP_BUILD=1 DURATION=10 CONNECTIONS=100 DIGESTS=50 node bench/digests-list.mjs
//   PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres   where the throw-away database is created
//   MODES=embedded,postgres                         which databases to measure (both by default)
//   BASE=/tmp/digest-before                         also measure another build (a folder holding
//                                                   apps/server/dist/main.js), alternately with this one: A/B
//   PROFILE=/tmp/profiles                           run each server under `node --cpu-prof` into that folder
//
// The server is the real program (`node apps/server/dist/main.js`, all roles, LOG_LEVEL=warn) on a free
// port; autocannon runs in this process, the server in its own. While each load runs, GET /api/health is
// asked every 250 ms on its own connection: its slowest answer shows whether the server still answers an
// operator (or a load balancer) when it is past capacity.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
const MODES = (process.env.MODES ?? 'embedded,postgres').split(',');
const BASE = process.env.BASE ? path.resolve(process.env.BASE) : undefined;
const PROFILE = process.env.PROFILE ? path.resolve(process.env.PROFILE) : undefined;

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

async function waitFor(url, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function startProcess(args, env, cwd = root) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    /** CPU time the process has used so far (user + system), in ms: from /proc, as on Linux. */
    async cpuMs() {
      const fields = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 per second).
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
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

/** A new user, signed in: their `Authorization` header. */
async function signedInUser(base) {
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
  return `Bearer ${token.accessToken}`;
}

async function seed(base) {
  const authorization = await signedInUser(base);
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

/** Asks `url` every 250 ms until `stop` resolves: the slowest answer and how many were not 200. */
async function probe(url, stopped) {
  let slowest = 0;
  let failed = 0;
  let done = false;
  stopped.then(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
      await response.arrayBuffer();
      if (response.status !== 200) failed++;
    } catch {
      failed++;
    }
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { slowest: Math.round(slowest), failed };
}

async function load(url, headers = {}, healthUrl = undefined, cpuMs = undefined) {
  // A short warm-up (JIT, connection pools), then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const cpuBefore = await cpuMs?.();
  const run = autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const health = healthUrl ? probe(healthUrl, run) : undefined;
  const result = await run;
  const cpuAfter = await cpuMs?.();
  return {
    // The server's own CPU per answer: unlike req/s, barely moved by other work on the machine.
    cpuPerRequest:
      cpuMs && result.requests.total ? (cpuAfter - cpuBefore) / result.requests.total : undefined,
    health: health ? await health : undefined,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function measureServer(label, env, serverRoot = root) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [];
  const server = startProcess(
    [...profile, 'apps/server/dist/main.js'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
    serverRoot,
  );
  try {
    await waitFor(`${base}/api/health`);
    const { authorization, bytes } = await seed(base);
    const health = `${base}/api/health`;
    const full = await load(`${base}/api/digests`, { authorization }, health, server.cpuMs);
    // The same route for a user with no digests: what authenticating and answering cost on their own.
    const emptyAuthorization = await signedInUser(base);
    const empty = await load(
      `${base}/api/digests`,
      { authorization: emptyAuthorization },
      health,
      server.cpuMs,
    );
    return [
      { label, ...full, bytes },
      { label: `${label}, no digests`, ...empty, bytes: Buffer.byteLength('{"digests":[]}') },
    ];
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
    const result = await load(`http://127.0.0.1:${port}/json`, {}, undefined, server.cpuMs);
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
  // With BASE, the other build is measured just before this one for each database, so both see the same load.
  // This build is also measured with its list memory off (DIGEST_LIST_CACHE_USERS=0): what a list costs when
  // it is not kept (the first read after a change), beside what a repeated read costs.
  const memoryOff = { DIGEST_LIST_CACHE_USERS: '0' };
  const builds = [
    ...(BASE ? [['before', BASE, {}]] : []),
    [BASE ? 'after, list memory off' : 'list memory off', root, memoryOff],
    [BASE ? 'after' : undefined, root, {}],
  ];
  const named = (label, tag) => (tag ? `${label} — ${tag}` : label);

  if (MODES.includes('embedded')) {
    for (const [tag, serverRoot, extraEnv] of builds) {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-bench-'));
      try {
        const label = named('`GET /api/digests`, embedded (PGlite)', tag);
        results.push(...(await measureServer(label, { DATA_DIR: dataDir, ...extraEnv }, serverRoot)));
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  }

  if (MODES.includes('postgres')) {
    for (const [tag, serverRoot, extraEnv] of builds) {
      const database = `digest_bench_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database "${database}"`);
      const pgDataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-bench-pg-'));
      try {
        const url = new URL(PG_ADMIN_URL);
        url.pathname = `/${database}`;
        const label = named('`GET /api/digests`, PostgreSQL', tag);
        const env = { DATABASE_URL: url.href, DATA_DIR: pgDataDir, ...extraEnv };
        results.push(...(await measureServer(label, env, serverRoot)));
      } finally {
        await admin.query(`drop database if exists "${database}" with (force)`);
        await admin.end();
        await rm(pgDataDir, { recursive: true, force: true });
      }
    }
  }

  const cpu = os.cpus();
  console.log(
    `\n${DIGESTS} digests (6 sources, 2 subscribers each), ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up; ` +
      `${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; ` +
      `load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
  );
  console.log(
    '| Measure | req/s | p50 | p99 | requests | non-2xx | errors | body | server CPU per request | slowest health |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const health = r.health
      ? `${r.health.slowest} ms${r.health.failed ? ` (${r.health.failed} failed)` : ''}`
      : '–';
    console.log(
      `| ${r.label} | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.total} | ${r.non2xx} | ${r.errors} | ${(r.bytes / 1024).toFixed(1)} KiB | ${r.cpuPerRequest === undefined ? '–' : `${r.cpuPerRequest.toFixed(3)} ms`} | ${health} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
