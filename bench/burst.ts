/**
 * Burst benchmark: N digests due in the same minute, 5 RSS sources each drawn from a pool of feeds served
 * by the fake providers with 50–300 ms of latency, delivered to a real SMTP server (bench/smtp-sink.ts).
 * Then rss2email (Debian's `r2e`) on the same feeds, fakes and SMTP server, in the same run.
 *
 *   npx tsx bench/burst.ts                 builds the server, then MODE=both, N=5000, POOL=400
 *   SKIP_BUILD=1 MODE=postgres N=1000 WORKERS=2 SUBSCRIBERS=1 npx tsx bench/burst.ts
 *   RSS2EMAIL=0 …                          skips rss2email; R2E_FEEDS=… how many pool feeds it reads
 *   FEED_HOSTS=1 …                         every feed on one host (default 100 hosts: 127.0.0.2, .3, …)
 *   KEEP_LOGS=1 …                          keeps the servers' logs of a clean run too
 *   KEEP_DB=1 …                            keeps a PostgreSQL run's database (its name is printed) to look into
 *   PROFILE=/tmp/prof …                    every server process runs with --cpu-prof; top self-time printed
 *   PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres   where the throw-away database is created
 *
 * Embedded: the database is seeded by this process with the server stopped (one process may open
 * DATA_DIR), then one server process runs every role. PostgreSQL: one `api,scheduler` process and
 * WORKERS `worker` processes. Figures come from the tables (issue_runs, digest_builds, deliveries),
 * the sink (arrival times, duplicates), the fakes (upstream requests) and /proc (peak RSS); on PostgreSQL
 * also its CPU for the run's database (/proc), its counters (pg_stat_database) and the statements each
 * server process sent (bench/count-statements.cjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { FEED_POOL_SIZE, feedPoolFake } from '#test/fakes/providers/feed-pool';
import {
  buildServer,
  createBenchDatabase,
  databaseCounters,
  envNumber,
  type Mode,
  machine,
  machineBusySeconds,
  modesFrom,
  nextSlot,
  type PipelineResult,
  readPipeline,
  type StatementTimes,
  scheduleAll,
  seed,
  serverEnvironment,
  speedProbeMs,
  spread,
  startCluster,
  summariseProfile,
  trackPeakRss,
  trackPostgresCpu,
  waitForMessages,
} from './burst-kit';
import { startSmtpSink } from './smtp-sink';

const N = envNumber('N', 5000);
const POOL = envNumber('POOL', 400);
const SOURCES = envNumber('SOURCES', 5);
const SUBSCRIBERS = envNumber('SUBSCRIBERS', 0);
const WORKERS = envNumber('WORKERS', 2);
const LATENCY = { min: envNumber('LATENCY_MIN_MS', 50), max: envNumber('LATENCY_MAX_MS', 300) };
const LEAD_MS = envNumber('LEAD_SECONDS', 20) * 1000;
const STALL_MS = envNumber('STALL_SECONDS', 120) * 1000;
const TIMEOUT_MS = envNumber('TIMEOUT_MINUTES', 30) * 60_000;
const R2E_FEEDS = envNumber('R2E_FEEDS', POOL);
/**
 * The pool's feeds are spread over this many loopback hosts, feed n on host n mod FEED_HOSTS, as a
 * thousand real feeds are spread over many sites: each process fetches at most 6 at once from one host
 * (safe-fetch's politeness limit), so a pool on one host measures that limit (≈ 14 s for the first
 * fetches of 1 000 feeds) rather than the servers.
 */
const FEED_HOSTS = envNumber('FEED_HOSTS', 100);
const feedHostAliases =
  FEED_HOSTS > 1 ? Array.from({ length: FEED_HOSTS }, (_, i) => `127.0.0.${i + 2}`) : [];
const PROFILE = process.env.PROFILE;

interface BurstResult {
  mode: Mode;
  outcome: string;
  expected: number;
  pipeline: PipelineResult;
  distinctFeeds: number;
  upstreamRequests: number;
  arrivals: number[];
  sinkMessages: number;
  duplicateMessageIds: number;
  duplicateListRecipients: number;
  peaks: { label: string; mib: number; cpuSeconds: number; statements: number | undefined }[];
  /** PostgreSQL only: every process's statements by text (bench/count-statements.cjs). */
  statementTimes: StatementTimes;
  /** From the servers being up to the last message: the machine's busy CPU seconds, and the bench's own. */
  machineCpu: { busySeconds: number; benchSeconds: number };
  /** `speedProbeMs()` just before the servers start and just after they stop. */
  speedProbe: { beforeMs: number; afterMs: number };
  /** PostgreSQL only: CPU seconds of the run's backends and of the shared processes; counter deltas. */
  postgres?: { cpu: { database: number; shared: number }; counters: Record<string, number> };
  blockCaches: ({ label: string } & Partial<BlockCacheFigures>)[];
  logDir: string;
}

interface BlockCacheFigures {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** The last figures a process's rendered-block cache logged (every 5 000 lookups), if it logged any. */
async function lastBlockCacheFigures(logFile: string): Promise<Partial<BlockCacheFigures>> {
  const lines = (await readFile(logFile, 'utf8').catch(() => '')).split('\n');
  const last = lines.findLast((line) => line.includes('"rendered-block cache"'));
  return last ? (JSON.parse(last) as BlockCacheFigures) : {};
}

function describeBlockCaches(result: BurstResult): string {
  const logged = result.blockCaches.filter((cache) => cache.hits !== undefined);
  if (logged.length === 0) return 'not logged (fewer than 5 000 lookups, or a build without it)';
  return logged
    .map(({ label, hits = 0, misses = 0, entries = 0, bytes = 0 }) => {
      const rate = (100 * hits) / Math.max(1, hits + misses);
      return `${label} ${rate.toFixed(1)} % of ${hits + misses}, ${entries} blocks, ${(bytes / 2 ** 20).toFixed(1)} MiB`;
    })
    .join('; ');
}

function poolFeedUrl(fakes: FakeProviders) {
  const origins = fakes.aliasOrigins.length > 0 ? fakes.aliasOrigins : [fakes.origin];
  return (n: number) => `${origins[n % origins.length]}/feeds/pool/${n}.xml`;
}

async function runBurst(mode: Mode, fakes: FakeProviders): Promise<BurstResult> {
  const database = await createBenchDatabase(mode);
  const logDir = await mkdtemp(path.join(os.tmpdir(), `digest-burst-logs-${mode}-`));
  const sink = await startSmtpSink();
  try {
    let db = await database.open();
    const seeded = Date.now();
    const { distinctFeeds } = await seed(db, {
      digests: N,
      pool: POOL,
      sourcesPerDigest: SOURCES,
      subscribersPerDigest: SUBSCRIBERS,
      feedUrl: poolFeedUrl(fakes),
    });
    console.log(`${mode}: seeded ${N} digests in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    const slot = nextSlot(LEAD_MS);
    await scheduleAll(db, slot);
    // PGlite: the server must be the only process with DATA_DIR open.
    if (mode === 'embedded') await database.close();
    fakes.resetHits();
    const profileDir = PROFILE ? path.join(PROFILE, mode) : undefined;
    const probeBeforeMs = speedProbeMs();
    const cluster = await startCluster({
      database,
      // info: the workers log their rendered-block cache's figures (and each issue: a few MB of logs).
      env: serverEnvironment(database, sink, { LOG_LEVEL: 'info', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.0/8' }),
      workers: WORKERS,
      logDir,
      profileDir,
    });
    console.log(`${mode}: ${cluster.processes.length} server process(es) up; slot ${slot.toISOString()}`);
    const databaseName = database.serverEnv.DATABASE_URL
      ? new URL(database.serverEnv.DATABASE_URL).pathname.slice(1)
      : undefined;
    const postgresCpu = databaseName ? trackPostgresCpu(databaseName) : undefined;
    await postgresCpu?.read();
    const countersBefore = databaseName ? await databaseCounters(db) : undefined;
    const expected = N * (1 + SUBSCRIBERS);
    const benchCpuBefore = process.cpuUsage();
    const machineBefore = await machineBusySeconds();
    let lastReport = 0;
    const outcome = await waitForMessages(sink, {
      expected,
      slot,
      stallMs: STALL_MS,
      timeoutMs: TIMEOUT_MS,
      onProgress: (received) => {
        if (Date.now() - lastReport < 10_000) return;
        lastReport = Date.now();
        console.log(`${mode}: ${received}/${expected} messages at the sink`);
      },
    });
    const benchUsage = process.cpuUsage(benchCpuBefore);
    const machineCpu = {
      busySeconds: (await machineBusySeconds()) - machineBefore,
      benchSeconds: (benchUsage.user + benchUsage.system) / 1e6,
    };
    await postgresCpu?.read();
    postgresCpu?.stop();
    await cluster.stop();
    const speedProbe = { beforeMs: probeBeforeMs, afterMs: speedProbeMs() };
    // After the stop: a backend adds its last counts to pg_stat_database as it exits.
    const countersAfter = countersBefore ? await databaseCounters(db) : undefined;
    const postgres =
      postgresCpu && countersBefore && countersAfter
        ? {
            cpu: postgresCpu.cpuSeconds(),
            counters: Object.fromEntries(
              Object.entries(countersAfter).map(([name, value]) => [
                name,
                value - (countersBefore[name] ?? 0),
              ]),
            ),
          }
        : undefined;
    const peaks = await Promise.all(
      cluster.processes.map(async (process) => ({
        label: process.label,
        mib: process.peakRssMiB(),
        cpuSeconds: process.cpuSeconds(),
        statements: await process.statements(),
      })),
    );
    const blockCaches = await Promise.all(
      cluster.processes.map(async (server) => ({
        label: server.label,
        ...(await lastBlockCacheFigures(server.logFile)),
      })),
    );
    if (profileDir) {
      for (const server of cluster.processes) {
        console.log(`\n${mode}, ${server.label}:`);
        await summariseProfile(path.join(profileDir, path.basename(server.logFile, '.log')));
      }
    }
    const statementTimes = mergeStatementTimes(
      await Promise.all(cluster.processes.map((process) => process.statementTimes())),
    );
    if (mode === 'embedded') db = await database.open();
    const pipeline = await readPipeline(db, slot);
    const counts = sink.counts();
    const clean = outcome === 'complete' && counts.messages === expected && counts.duplicateMessageIds === 0;
    // The servers' warnings are kept only when something went wrong.
    if (clean && !process.env.KEEP_LOGS) await rm(logDir, { recursive: true, force: true });
    return {
      mode,
      outcome,
      expected,
      pipeline,
      distinctFeeds,
      upstreamRequests: fakes.hits('/feeds/pool'),
      arrivals: sink.messages.map((message) => (message.arrivedAt - slot.getTime()) / 1000),
      sinkMessages: counts.messages,
      duplicateMessageIds: counts.duplicateMessageIds,
      duplicateListRecipients: counts.duplicateListRecipients,
      peaks,
      machineCpu,
      speedProbe,
      statementTimes,
      ...(postgres ? { postgres } : {}),
      blockCaches,
      logDir: clean && !process.env.KEEP_LOGS ? 'removed (clean run)' : logDir,
    };
  } finally {
    await sink.stop();
    await database.dispose();
  }
}

interface Rss2EmailResult {
  feeds: number;
  seconds: number;
  messages: number;
  upstreamRequests: number;
  peakMiB: number;
  exitCode: number | null;
}

/**
 * rss2email reading `feeds` pool feeds, each to one recipient, with `digest = True` (one message per
 * feed and run with its entries, its closest equivalent of an issue), sending through a fresh sink.
 */
async function runRss2Email(fakes: FakeProviders, feeds: number): Promise<Rss2EmailResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'digest-burst-r2e-'));
  const sink = await startSmtpSink();
  try {
    const sections = Array.from(
      { length: feeds },
      (_, n) => `[feed.pool${n}]\nurl = ${poolFeedUrl(fakes)(n)}\nto = reader${n}@bench.example.com\n`,
    );
    const config = path.join(dir, 'rss2email.cfg');
    await writeFile(
      config,
      [
        '[DEFAULT]',
        'from = rss2email@bench.example.com',
        'email-protocol = smtp',
        `smtp-server = 127.0.0.1:${sink.port}`,
        'smtp-auth = False',
        'digest = True',
        'verbose = error',
        '',
        ...sections,
      ].join('\n'),
    );
    fakes.resetHits();
    const started = performance.now();
    // Asynchronous on purpose: the fakes and the sink answer from this process's event loop.
    const child = spawn('r2e', ['-c', config, '-d', path.join(dir, 'rss2email.json'), 'run'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const peak = trackPeakRss(child.pid ?? 0);
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    peak.stop();
    return {
      feeds,
      seconds: (performance.now() - started) / 1000,
      messages: sink.messages.length,
      upstreamRequests: fakes.hits('/feeds/pool'),
      peakMiB: peak.peakMiB(),
      exitCode,
    };
  } finally {
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Messages per second from the first scheduler pick to the last delivery marked sent. */
function deliveredPerSecond(result: BurstResult): number {
  const sent = result.pipeline.sentLateness;
  if (sent.length === 0) return 0;
  return sent.length / (Math.max(...sent) - result.pipeline.firstPick);
}

function builtPerSecond(result: BurstResult): number {
  const built = result.pipeline.buildLateness;
  if (built.length === 0) return 0;
  return built.length / (Math.max(...built) - result.pipeline.firstPick);
}

function describeCounts(counts: Record<string, number>): string {
  return (
    Object.entries(counts)
      .map(([key, count]) => `${key} ${count}`)
      .join(', ') || 'none'
  );
}

function printBurst(results: BurstResult[]) {
  const column = (render: (result: BurstResult) => string) => results.map(render).join(' | ');
  console.log(
    `\n| Measure | ${column((r) => (r.mode === 'embedded' ? 'embedded (PGlite)' : `PostgreSQL, ${WORKERS} workers`))} |`,
  );
  console.log(`|---|${results.map(() => '---').join('|')}|`);
  const rows: [string, (r: BurstResult) => string][] = [
    ['outcome', (r) => r.outcome],
    ['issue runs', (r) => describeCounts(r.pipeline.runs)],
    ['deliveries', (r) => `${describeCounts(r.pipeline.deliveries)} (expected ${r.expected})`],
    ['first pick after the slot', (r) => `${r.pipeline.firstPick.toFixed(1)} s`],
    ['**issues built/s**', (r) => builtPerSecond(r).toFixed(1)],
    ['**delivered/s**', (r) => deliveredPerSecond(r).toFixed(1)],
    ['build lateness p50 / p99 / max', (r) => spread(r.pipeline.buildLateness)],
    ['**sent lateness** (sent_at − slot) p50 / p99 / max', (r) => spread(r.pipeline.sentLateness)],
    ['**SMTP arrival − slot** p50 / p99 / max', (r) => spread(r.arrivals)],
    [
      '**upstream fetches per distinct feed**',
      (r) =>
        `${(r.upstreamRequests / r.distinctFeeds).toFixed(2)} (${r.upstreamRequests} / ${r.distinctFeeds})`,
    ],
    ['rendered-block cache: hits, blocks held, HTML held (last logged)', describeBlockCaches],
    [
      '**server CPU per issue** (user + system, start to stop)',
      (r) =>
        r.peaks.map((peak) => `${peak.label} ${((1000 * peak.cpuSeconds) / N).toFixed(1)} ms`).join(', '),
    ],
    [
      '**statements sent per issue** (node-postgres queries, BEGIN/COMMIT and the job queue included)',
      (r) =>
        r.peaks.some((peak) => peak.statements !== undefined)
          ? `${(r.peaks.reduce((sum, peak) => sum + (peak.statements ?? 0), 0) / N).toFixed(1)}: ${r.peaks
              .map((peak) => `${peak.label} ${((peak.statements ?? 0) / N).toFixed(1)}`)
              .join(', ')}`
          : '–',
    ],
    [
      '**machine CPU per issue** (every core busy, start to last message; of it the bench with its fakes and sink)',
      (r) =>
        `${((1000 * r.machineCpu.busySeconds) / N).toFixed(1)} ms; bench ${((1000 * r.machineCpu.benchSeconds) / N).toFixed(1)} ms`,
    ],
    [
      'machine speed probe (a bare loop of 10⁸ steps before / after the run; lower is faster)',
      (r) => `${r.speedProbe.beforeMs.toFixed(0)} / ${r.speedProbe.afterMs.toFixed(0)} ms`,
    ],
    [
      "**PostgreSQL CPU per issue** (the run's backends; shared WAL writer, checkpointer, bgwriter)",
      (r) =>
        r.postgres
          ? `${((1000 * r.postgres.cpu.database) / N).toFixed(1)} ms; shared ${((1000 * r.postgres.cpu.shared) / N).toFixed(1)} ms`
          : '–',
    ],
    [
      'PostgreSQL per issue (pg_stat_database): transactions; rows returned / fetched / inserted / updated / deleted',
      (r) => {
        if (!r.postgres) return '–';
        const per = (name: string) => ((r.postgres?.counters[name] ?? 0) / N).toFixed(1);
        return `${per('xact_commit')}; ${['tup_returned', 'tup_fetched', 'tup_inserted', 'tup_updated', 'tup_deleted'].map(per).join(' / ')}`;
      },
    ],
    [
      'PostgreSQL: rows read by sequential scans per issue, the top tables',
      (r) => {
        const seq = Object.entries(r.postgres?.counters ?? {}).filter(([name]) => name.startsWith('seq:'));
        const top = seq.sort(([, a], [, b]) => b - a).slice(0, 4);
        return top.length > 0
          ? top.map(([name, rows]) => `${name.slice(4)} ${(rows / N).toFixed(0)}`).join(', ')
          : '–';
      },
    ],
    ['**peak RSS** (VmHWM)', (r) => r.peaks.map((peak) => `${peak.label} ${peak.mib} MiB`).join(', ')],
    ['messages at the sink', (r) => String(r.sinkMessages)],
    [
      '**duplicates** (Message-ID / List-Id+recipient)',
      (r) => `${r.duplicateMessageIds} / ${r.duplicateListRecipients}`,
    ],
    ['delivery retries (attempts − 1)', (r) => String(r.pipeline.retries)],
    ['server logs', (r) => r.logDir],
  ];
  for (const [label, render] of rows) console.log(`| ${label} | ${column(render)} |`);
}

function mergeStatementTimes(all: (StatementTimes | undefined)[]): StatementTimes {
  const merged: StatementTimes = {};
  for (const times of all) {
    for (const [text, { count, ms }] of Object.entries(times ?? {})) {
      const entry = merged[text] ?? { count: 0, ms: 0 };
      merged[text] = { count: entry.count + count, ms: entry.ms + ms };
    }
  }
  return merged;
}

/** The statements that took the most time to answer, per issue: where PostgreSQL's share goes. */
function printStatementTimes(result: BurstResult) {
  const top = Object.entries(result.statementTimes)
    .sort(([, a], [, b]) => b.ms - a.ms)
    .slice(0, 12);
  if (top.length === 0) return;
  const n = result.expected;
  console.log(
    `\n| ${result.mode}: statements by time to answer (all processes) | per issue | ms per issue | mean ms |\n|---|---|---|---|`,
  );
  for (const [text, { count, ms }] of top) {
    const shown = text.replaceAll('|', '\\|');
    console.log(
      `| \`${shown}\` | ${(count / n).toFixed(2)} | ${(ms / n).toFixed(2)} | ${(ms / count).toFixed(2)} |`,
    );
  }
}

function printRss2Email(r2e: Rss2EmailResult, results: BurstResult[]) {
  console.log('\n| rss2email 3 (`r2e run`, digest = True) | value |\n|---|---|');
  console.log(`| feeds (one recipient each) | ${r2e.feeds} |`);
  console.log(`| wall | ${r2e.seconds.toFixed(1)} s (exit ${r2e.exitCode}) |`);
  console.log(`| messages at the sink | ${r2e.messages} |`);
  console.log(`| **messages/s** | ${(r2e.messages / r2e.seconds).toFixed(2)} |`);
  console.log(`| upstream fetches | ${r2e.upstreamRequests} |`);
  console.log(`| peak RSS | ${r2e.peakMiB} MiB |`);
  for (const result of results) {
    const digestRate = deliveredPerSecond(result);
    // Each Digest message carries SOURCES feeds; each rss2email message one.
    const feedsServed = digestRate * SOURCES;
    console.log(
      `| ratio Digest (${result.mode}) / rss2email: messages/s | ${(digestRate / (r2e.messages / r2e.seconds)).toFixed(1)} × |`,
    );
    console.log(
      `| ratio Digest (${result.mode}) / rss2email: feed reads delivered per second | ${(feedsServed / (r2e.feeds / r2e.seconds)).toFixed(1)} × |`,
    );
  }
}

async function main() {
  if (POOL > FEED_POOL_SIZE) throw new Error(`POOL must be at most ${FEED_POOL_SIZE}`);
  buildServer();
  if (FEED_HOSTS > 253) throw new Error('FEED_HOSTS must be at most 253 (127.0.0.2 … 127.0.0.254)');
  const fakes = await startFakeProviders({
    providers: [feedPoolFake({ latencyMs: LATENCY })],
    aliases: feedHostAliases,
  });
  try {
    const results: BurstResult[] = [];
    for (const mode of modesFrom(process.env.MODE, 'both')) results.push(await runBurst(mode, fakes));
    console.log(
      `\n${N} digests × ${SOURCES} RSS sources from ${POOL} feeds on ${FEED_HOSTS} host(s) (${LATENCY.min}–${LATENCY.max} ms), ` +
        `${SUBSCRIBERS} subscriber(s) each; ${machine()}`,
    );
    printBurst(results);
    for (const result of results) printStatementTimes(result);
    if (process.env.RSS2EMAIL === '0') return;
    // The comparison needs Debian's rss2email; without it the Digest figures above still stand.
    if (spawnSync('r2e', ['--version']).error) {
      console.log(
        '\nrss2email skipped: `r2e` is not installed (apt-get install -y rss2email), or set RSS2EMAIL=0.',
      );
      return;
    }
    printRss2Email(await runRss2Email(fakes, R2E_FEEDS), results);
  } finally {
    await fakes.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
