/**
 * What the burst and reliability benches share: a throw-away database (embedded PGlite in a temporary
 * DATA_DIR, or a database created on PG_ADMIN_URL), seeding users and digests straight into it, the real
 * server as child processes with their peak memory, waiting for the burst to drain, and reading the
 * results back from the tables and the SMTP sink.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssSourceSchema } from '@digest/contracts';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { embeddedDatabase, postgresDatabase } from '#server/db/client';
import { migrateDatabase } from '#server/db/migrate';
import type { SmtpSink } from './smtp-sink';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Mode = 'embedded' | 'postgres';

export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

export function modesFrom(value: string | undefined, fallback: string): Mode[] {
  const mode = value ?? fallback;
  if (mode === 'both') return ['embedded', 'postgres'];
  if (mode === 'embedded' || mode === 'postgres') return [mode];
  throw new Error(`MODE must be embedded, postgres or both, not ${mode}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function buildServer() {
  if (process.env.SKIP_BUILD) return;
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/server'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build -w apps/server failed');
}

// ---------------------------------------------------------------------------------------------------
// Database
// ---------------------------------------------------------------------------------------------------

/** What both drivers answer: PGlite's `query` and pg's `Pool.query` take the same arguments. */
export interface Queryable {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

export interface BenchDatabase {
  mode: Mode;
  /** DATA_DIR (both modes: the server keeps its secret and outbox there) and DATABASE_URL on PostgreSQL. */
  serverEnv: Record<string, string>;
  /** Opens (and migrates) the database in this process; on PGlite only while no server runs. */
  open(): Promise<Queryable>;
  /** Closes this process's connection (PGlite: lets the server open DATA_DIR). */
  close(): Promise<void>;
  /** Closes and deletes everything. */
  dispose(): Promise<void>;
}

export async function createBenchDatabase(mode: Mode): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `digest-burst-${mode}-`));
  if (mode === 'embedded') {
    let handle: ReturnType<typeof embeddedDatabase> | undefined;
    const close = async () => {
      await handle?.close();
      handle = undefined;
    };
    return {
      mode,
      serverEnv: { DATA_DIR: dataDir },
      async open() {
        handle ??= embeddedDatabase(await PGlite.create(path.join(dataDir, 'pglite')));
        await migrateDatabase(handle);
        return handle.pglite;
      },
      close,
      async dispose() {
        await close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `digest_burst_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let handle: ReturnType<typeof postgresDatabase> | undefined;
  const close = async () => {
    await handle?.close();
    handle = undefined;
  };
  return {
    mode,
    serverEnv: { DATA_DIR: dataDir, DATABASE_URL: url.href },
    async open() {
      handle ??= postgresDatabase(url.href, 4);
      await migrateDatabase(handle);
      return handle.pool;
    },
    close,
    async dispose() {
      await close();
      if (process.env.KEEP_DB) return console.log(`kept database ${name} (KEEP_DB)`);
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------------

export interface SeedOptions {
  digests: number;
  /** Feeds in the pool the sources are drawn from. */
  pool: number;
  sourcesPerDigest: number;
  subscribersPerDigest: number;
  feedUrl(n: number): string;
}

/** Distinct pool feeds for digest `index`, the same in every run (a small LCG seeded by the index). */
export function feedsOfDigest(
  index: number,
  options: Pick<SeedOptions, 'pool' | 'sourcesPerDigest'>,
): number[] {
  const chosen = new Set<number>();
  let state = (index * 2_654_435_761 + 12_345) >>> 0;
  while (chosen.size < Math.min(options.sourcesPerDigest, options.pool)) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    chosen.add(state % options.pool);
  }
  return [...chosen];
}

const SEED_BATCH = 1000;

async function insertBatches<Row>(rows: Row[], insert: (batch: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += SEED_BATCH) {
    await insert(rows.slice(start, start + SEED_BATCH));
  }
}

/**
 * One user (UTC, en-US) and one active daily digest per index, each with `sourcesPerDigest` RSS sources
 * stored as the API stores them (every default filled in by the contracts' schema), and
 * `subscribersPerDigest` subscribers who accepted (`subscribed`: an invited friend gets no issue). Rows go
 * in by arrays (`unnest`), a thousand per statement.
 * Answers how many distinct pool feeds the digests use.
 */
export async function seed(db: Queryable, options: SeedOptions): Promise<{ distinctFeeds: number }> {
  const used = new Set<number>();
  const users: [string, string, string][] = [];
  const digests: [string, string, string, string][] = [];
  const subscribers: [string, string, string][] = [];
  for (let index = 0; index < options.digests; index++) {
    const userId = randomUUID();
    const digestId = randomUUID();
    const feeds = feedsOfDigest(index, options);
    for (const feed of feeds) used.add(feed);
    const sources = feeds.map((feed) =>
      rssSourceSchema.parse({
        type: 'RSS',
        feedLink: options.feedUrl(feed),
        sourceName: `Pool feed ${feed}`,
      }),
    );
    users.push([userId, `owner${index}@bench.example.com`, `Owner ${index}`]);
    digests.push([digestId, userId, `Morning reading ${index}`, JSON.stringify(sources)]);
    for (let k = 0; k < options.subscribersPerDigest; k++) {
      subscribers.push([digestId, `friend${index}-${k}@bench.example.com`, randomBytes(16).toString('hex')]);
    }
  }
  const column = <Row extends unknown[]>(rows: Row[], at: number) => rows.map((row) => row[at]);
  await insertBatches(users, (batch) =>
    db.query(
      `insert into users (user_id, email, full_name, confirmed, timezone, locale)
       select u, e, n, true, 'UTC', 'en-US' from unnest($1::uuid[], $2::text[], $3::text[]) as t(u, e, n)`,
      [column(batch, 0), column(batch, 1), column(batch, 2)],
    ),
  );
  await insertBatches(digests, (batch) =>
    db.query(
      `insert into digests (digest_id, user_id, name, schedule_type, time, sources)
       select d, u, n, 'daily', '07:00', s::jsonb from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) as t(d, u, n, s)`,
      [column(batch, 0), column(batch, 1), column(batch, 2), column(batch, 3)],
    ),
  );
  await insertBatches(subscribers, (batch) =>
    db.query(
      `insert into digest_subscribers (digest_id, email, token, status)
       select d, e, k, 'subscribed' from unnest($1::uuid[], $2::text[], $3::text[]) as t(d, e, k)`,
      [column(batch, 0), column(batch, 1), column(batch, 2)],
    ),
  );
  // A database in service has statistics; one just filled by bulk inserts has none until autovacuum's next
  // round, and the planner then guessed ≈ 160 digests per owner and read every stored issue per build.
  await db.query('analyze users, digests, digest_subscribers');
  return { distinctFeeds: used.size };
}

/** The next whole minute at least `leadMs` from now: long enough to start the server before it. */
export function nextSlot(leadMs: number): Date {
  return new Date(Math.ceil((Date.now() + leadMs) / 60_000) * 60_000);
}

/** Every digest is due at `slot`, at its owner's (UTC) time of day. */
export async function scheduleAll(db: Queryable, slot: Date) {
  const time = slot.toISOString().slice(11, 16);
  await db.query('update digests set next_run_at = $1, time = $2', [slot.toISOString(), time]);
}

// ---------------------------------------------------------------------------------------------------
// Server processes
// ---------------------------------------------------------------------------------------------------

export type StatementTimes = Record<string, { count: number; ms: number }>;

export interface ServerProcess {
  label: string;
  pid: number;
  logFile: string;
  /** Highest VmHWM (peak resident set) read from /proc, in MiB. */
  peakRssMiB(): number;
  /** CPU time (user + system) used so far, read from /proc (the last reading once it has stopped). */
  cpuSeconds(): number;
  /** Statements it sent to PostgreSQL (`bench/count-statements.cjs`), once it has stopped; undefined embedded. */
  statements(): Promise<number | undefined>;
  /** Per statement text: how often it was sent and its milliseconds to the answer, once it has stopped. */
  statementTimes(): Promise<StatementTimes | undefined>;
  /** SIGTERM and wait (no-op when it has exited). */
  stop(): Promise<void>;
  /** SIGKILL and wait: a crash. */
  kill(): Promise<void>;
}

async function readPeakKiB(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** utime + stime of /proc/<pid>/stat in seconds (clock ticks of 1/100 s on Linux), 0 once it is gone. */
async function readCpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The whole machine's busy CPU seconds so far (/proc/stat: every core's user, nice, system, irq, softirq
 * and steal time): what the servers, PostgreSQL, the bench, its fakes and sink and the kernel's network
 * path spent together, against the cores' seconds a burst has.
 */
export async function machineBusySeconds(): Promise<number> {
  const [line] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const [, user, nice, system, , , irq, softirq, steal] = (line ?? '').trim().split(/\s+/).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100;
}

/**
 * Follows a process's VmHWM (the kernel's peak resident set) and CPU time, polled so the last values
 * before it exits are kept. CPU time does not depend on how busy the machine is, unlike rates.
 */
export function trackPeakRss(pid: number) {
  let peakKiB = 0;
  let cpu = 0;
  const read = async () => {
    peakKiB = Math.max(peakKiB, await readPeakKiB(pid));
    cpu = Math.max(cpu, await readCpuSeconds(pid));
  };
  const timer = setInterval(read, 500);
  return {
    read,
    peakMiB: () => Math.round(peakKiB / 1024),
    cpuSeconds: () => cpu,
    stop: () => clearInterval(timer),
  };
}

/**
 * PostgreSQL's CPU time over a run, from /proc: its backends serving `database` (and autovacuum workers
 * there), found by their title (`postgres: 15/main: <user> <database> 127.0.0.1(port) …`), and apart its
 * shared processes (WAL writer, checkpointer, background writer), which also work for other databases on a
 * shared machine. Read every second, so a backend that exits keeps its last reading (at most its last
 * second is lost); backends that start during the run count from zero, the others from the first reading.
 */
export function trackPostgresCpu(database: string) {
  const SHARED = ['walwriter', 'checkpointer', 'background writer'];
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const kind = new Map<number, 'database' | 'shared'>();
  let readings = 0;
  const read = async () => {
    for (const entry of await readdir('/proc').catch(() => [])) {
      if (!/^\d+$/.test(entry)) continue;
      const title = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ');
      if (!title.startsWith('postgres: ')) continue;
      const ours = title.split(/\s+/).includes(database);
      const shared = SHARED.some((name) => title.includes(`: ${name}`));
      if (!ours && !shared) continue;
      const pid = Number(entry);
      const cpu = await readCpuSeconds(pid);
      if (!first.has(pid)) first.set(pid, readings === 0 || shared ? cpu : 0);
      last.set(pid, Math.max(last.get(pid) ?? 0, cpu));
      kind.set(pid, ours ? 'database' : 'shared');
    }
    readings += 1;
  };
  const timer = setInterval(read, 1000);
  const sum = (wanted: 'database' | 'shared') =>
    [...last].reduce(
      (total, [pid, cpu]) => total + (kind.get(pid) === wanted ? cpu - (first.get(pid) ?? 0) : 0),
      0,
    );
  return {
    read,
    /** CPU seconds so far: the database's backends, and the shared processes. */
    cpuSeconds: () => ({ database: sum('database'), shared: sum('shared') }),
    stop: () => clearInterval(timer),
  };
}

/** The statistics PostgreSQL keeps per database (pg_stat_database): transactions, rows read and written. */
export async function databaseCounters(db: Queryable): Promise<Record<string, number>> {
  const { rows } = await db.query<Record<string, string>>(
    `select xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted,
       blks_hit, blks_read
     from pg_stat_database where datname = current_database()`,
  );
  // Rows read by sequential scans, per table (every schema: pg-boss's tables too): where `tup_returned` goes.
  const tables = await db.query<{ name: string; rows: string }>(
    `select schemaname || '.' || relname as name, coalesce(seq_tup_read, 0) as rows from pg_stat_all_tables
     where schemaname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
  );
  return {
    ...Object.fromEntries(Object.entries(rows[0] ?? {}).map(([name, value]) => [name, Number(value)])),
    ...Object.fromEntries(tables.rows.map((row) => [`seq:${row.name}`, Number(row.rows)])),
  };
}

const running = new Set<ChildProcess>();
// A bench that fails leaves no server behind (they would keep the throw-away database open).
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The program the benches start; `SERVER_ENTRY=bench/results/dist-before/main.js` runs another build of it
 * (an A/B: build the earlier commit, copy its `apps/server/dist` there; it must sit two folders deep, as
 * `dist` does, to find `node_modules`, and `bench/results/` is not tracked).
 */
const SERVER_ENTRY = process.env.SERVER_ENTRY ?? 'apps/server/dist/main.js';
/** Node options for every server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (NODE_OPTIONS refuses those). */
const SERVER_NODE_ARGS = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** `node apps/server/dist/main.js` (or SERVER_ENTRY) with `env` (and `nodeArgs`, e.g. `--cpu-prof`); its output goes to `logFile`. */
export function startServer(
  label: string,
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
): ServerProcess {
  const log = openSync(logFile, 'a');
  const statementsFile = logFile.replace(/\.log$/, '.statements');
  const counter = env.DATABASE_URL ? ['--require', path.join(ROOT, 'bench/count-statements.cjs')] : [];
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, ...counter, ...nodeArgs, SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
      ...(counter.length > 0 ? { STATEMENTS_FILE: statementsFile } : {}),
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  running.add(child);
  const pid = child.pid ?? 0;
  const peak = trackPeakRss(pid);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      peak.stop();
      resolve();
    }),
  );
  const signal = async (name: NodeJS.Signals) => {
    await peak.read();
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    label,
    pid,
    logFile,
    peakRssMiB: peak.peakMiB,
    cpuSeconds: peak.cpuSeconds,
    statements: async () => {
      const text = await readFile(statementsFile, 'utf8').catch(() => undefined);
      return text === undefined ? undefined : Number(text);
    },
    statementTimes: async () => {
      const text = await readFile(`${statementsFile}.json`, 'utf8').catch(() => undefined);
      return text === undefined ? undefined : (JSON.parse(text) as StatementTimes);
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}

export async function waitForHealth(base: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${base}/api/health did not answer within ${timeoutMs} ms`);
}

/** The environment every server process of a run shares. */
export function serverEnvironment(database: BenchDatabase, sink: SmtpSink, extra: Record<string, string>) {
  return {
    ...database.serverEnv,
    SMTP_URL: sink.url,
    MAIL_FROM: 'Digest <digest@bench.example.com>',
    APP_SECRET: randomBytes(32).toString('hex'),
    FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    ...extra,
  };
}

export interface Cluster {
  processes: ServerProcess[];
  workers: ServerProcess[];
  /** Starts one more worker process (PostgreSQL), e.g. after a kill. */
  addWorker(): Promise<ServerProcess>;
  stop(): Promise<void>;
}

/**
 * Embedded: one process with every role. PostgreSQL: one `api,scheduler` process and `workers`
 * processes with the worker role only.
 */
export async function startCluster(options: {
  database: BenchDatabase;
  env: Record<string, string>;
  workers: number;
  logDir: string;
  /** Each process runs with `--cpu-prof`, its profile written to `<profileDir>/<label>` when it stops. */
  profileDir?: string | undefined;
}): Promise<Cluster> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const common = { ...options.env, HOST: '127.0.0.1', APP_URL: base };
  const processes: ServerProcess[] = [];
  const workers: ServerProcess[] = [];
  const logFile = (name: string) => path.join(options.logDir, `${name}.log`);
  const nodeArgs = async (name: string) => {
    if (!options.profileDir) return [];
    const dir = path.join(options.profileDir, name);
    await mkdir(dir, { recursive: true });
    return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  };
  if (options.database.mode === 'embedded') {
    processes.push(
      startServer(
        'all roles',
        { ...common, PORT: String(port) },
        logFile('server'),
        await nodeArgs('server'),
      ),
    );
  } else {
    processes.push(
      startServer(
        'api,scheduler',
        { ...common, PORT: String(port), ROLES: 'api,scheduler' },
        logFile('api'),
        await nodeArgs('api'),
      ),
    );
  }
  await waitForHealth(base);
  let started = 0;
  const addWorker = async () => {
    // Numbered over the whole run: a worker started after a kill gets its own label and log.
    started += 1;
    const worker = startServer(
      `worker ${started}`,
      { ...common, PORT: String(await freePort()), ROLES: 'worker' },
      logFile(`worker-${started}`),
      await nodeArgs(`worker-${started}`),
    );
    workers.push(worker);
    processes.push(worker);
    return worker;
  };
  if (options.database.mode === 'postgres') {
    for (let i = 0; i < options.workers; i++) await addWorker();
  }
  return {
    processes,
    workers,
    addWorker,
    stop: async () => {
      await Promise.all(processes.map((process) => process.stop()));
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Waiting and results
// ---------------------------------------------------------------------------------------------------

/**
 * Waits until the sink received `expected` messages or `isDone` says the pipeline has settled, or
 * nothing arrived for `stallMs` (counted from the slot at the earliest), or `timeoutMs` passed.
 * `onProgress` sees the count once a second.
 */
export async function waitForMessages(
  sink: SmtpSink,
  options: {
    expected: number;
    slot: Date;
    stallMs: number;
    timeoutMs: number;
    onProgress?: (received: number) => void | Promise<void>;
    isDone?: () => Promise<boolean>;
  },
): Promise<'complete' | 'settled' | 'stalled' | 'timeout'> {
  const deadline = Date.now() + options.timeoutMs;
  let lastCount = -1;
  let lastChange = options.slot.getTime();
  for (;;) {
    const count = sink.messages.length;
    if (count !== lastCount) {
      lastCount = count;
      lastChange = Math.max(Date.now(), options.slot.getTime());
    }
    await options.onProgress?.(count);
    if (count >= options.expected) return 'complete';
    if (await options.isDone?.()) return 'settled';
    if (Date.now() - lastChange > options.stallMs) return 'stalled';
    if (Date.now() > deadline) return 'timeout';
    await sleep(1000);
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export interface PipelineResult {
  runs: Record<string, number>;
  deliveries: Record<string, number>;
  builds: number;
  /** Seconds from the slot, per build and per sent delivery. */
  buildLateness: number[];
  sentLateness: number[];
  /** First scheduler pick (earliest issue_runs.created_at) as seconds after the slot. */
  firstPick: number;
  retries: number;
}

async function countsBy(db: Queryable, sql: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ key: string; count: number }>(sql);
  return Object.fromEntries(rows.map((row) => [row.key, row.count]));
}

/** What the tables say about the burst at `slot`. */
export async function readPipeline(db: Queryable, slot: Date): Promise<PipelineResult> {
  const at = slot.toISOString();
  const runs = await countsBy(
    db,
    'select status as key, count(*)::int as count from issue_runs group by status',
  );
  const deliveries = await countsBy(
    db,
    'select state as key, count(*)::int as count from deliveries group by state',
  );
  const builds = await db.query<{ late: number }>(
    'select extract(epoch from created_at - $1::timestamptz)::float8 as late from digest_builds',
    [at],
  );
  const sent = await db.query<{ late: number }>(
    `select extract(epoch from sent_at - $1::timestamptz)::float8 as late from deliveries where state = 'sent'`,
    [at],
  );
  const first = await db.query<{ late: number | null }>(
    'select extract(epoch from min(created_at) - $1::timestamptz)::float8 as late from issue_runs',
    [at],
  );
  const retries = await db.query<{ retries: number }>(
    'select coalesce(sum(greatest(attempts - 1, 0)), 0)::int as retries from deliveries',
  );
  return {
    runs,
    deliveries,
    builds: builds.rows.length,
    buildLateness: builds.rows.map((row) => row.late),
    sentLateness: sent.rows.map((row) => row.late),
    firstPick: first.rows[0]?.late ?? Number.NaN,
    retries: retries.rows[0]?.retries ?? 0,
  };
}

/** "p50 / p99 / max" in seconds. */
export function spread(values: number[]): string {
  if (values.length === 0) return '–';
  const seconds = (value: number) => value.toFixed(1);
  return `${seconds(percentile(values, 50))} / ${seconds(percentile(values, 99))} / ${seconds(Math.max(...values))} s`;
}

/**
 * How fast this machine runs plain JavaScript right now: the milliseconds a bare loop of 10⁸ steps takes
 * (≈ 100 ms on an idle `node-svc` of 2026-11-27). Its speed changes from one run to the next on a shared
 * host, so a burst times it before and after: runs are comparable when their probes are.
 */
export function speedProbeMs(): number {
  const started = process.hrtime.bigint();
  let sum = 0;
  for (let i = 0; i < 1e8; i++) sum += i % 7;
  if (sum < 0) throw new Error('unreachable: keeps the loop from being optimised away');
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export function machine(): string {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
}

// ---------------------------------------------------------------------------------------------------
// The CPU profile
// ---------------------------------------------------------------------------------------------------

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * Self time per function and per package of the `.cpuprofile` files in `dir`, the top `top` of each,
 * counting only the samples within `window` (seconds from the profile's start) when given.
 */
export async function summariseProfile(dir: string, window?: [number, number], top = 20) {
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as {
      nodes: ProfileNode[];
      startTime: number;
      endTime: number;
      samples: number[];
      timeDeltas: number[];
    };
    const hitsOf = new Map<number, number>();
    let at = 0;
    let total = 0;
    profile.samples.forEach((id, index) => {
      at += profile.timeDeltas[index] ?? 0;
      const seconds = at / 1e6;
      if (window && (seconds < window[0] || seconds > window[1])) return;
      hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
      total += 1;
    });
    const byFunction = new Map<string, number>();
    const byPackage = new Map<string, number>();
    for (const node of profile.nodes) {
      const hits = hitsOf.get(node.id) ?? 0;
      if (!hits) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
      const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
      byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
      const pkg = url.includes('/node_modules/')
        ? (/\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? 'node_modules')
        : url.startsWith('wasm://')
          ? '(WebAssembly: PGlite)'
          : url.includes('/apps/server/dist/')
            ? 'apps/server (Digest)'
            : url.startsWith('node:')
              ? 'node:*'
              : functionName.startsWith('(')
                ? functionName
                : '(V8/native)';
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    }
    const seconds = window ? window[1] - window[0] : (profile.endTime - profile.startTime) / 1e6;
    const print = (title: string, map: Map<string, number>) => {
      console.log(`\n| ${title} | self % |\n|---|---|`);
      for (const [key, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
        console.log(`| \`${key}\` | ${((100 * hits) / total).toFixed(1)} |`);
      }
    };
    console.log(
      `\nCPU profile ${file}: ${seconds.toFixed(1)} s${window ? ' (the measured sending only)' : ''}, ${total} samples`,
    );
    print('function (self time)', byFunction);
    print('package (self time)', byPackage);
  }
}
