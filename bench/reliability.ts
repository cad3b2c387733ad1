/**
 * Reliability runs on a burst (issue 6):
 *
 * - crash: on PostgreSQL with separate worker processes, SIGKILL every worker once KILL_AT of the
 *   messages have arrived, start them again RESTART_AFTER_SECONDS later. At the end every
 *   (digest, slot, recipient) must be delivered exactly once (counted at the SMTP sink by Message-ID)
 *   or listed `uncertain` in the deliveries table: none lost, none stuck, none twice.
 * - outage: stop the SMTP sink for OUTAGE_SECONDS once OUTAGE_AT of the messages have arrived, start it
 *   again on the same port; everything must be delivered after it comes back (reports the drain time).
 *
 *   npx tsx bench/reliability.ts                        builds the server, then both runs
 *   SKIP_BUILD=1 RUNS=crash CRASH_N=2000 WORKERS=1 npx tsx bench/reliability.ts
 *   RUNS=outage OUTAGE_N=500 OUTAGE_SECONDS=120 OUTAGE_MODE=embedded npx tsx bench/reliability.ts
 *   KEEP_LOGS=1 …                                      keeps the servers' logs of a run that passed too
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { feedPoolFake } from '#test/fakes/providers/feed-pool';
import {
  type BenchDatabase,
  buildServer,
  type Cluster,
  createBenchDatabase,
  envNumber,
  type Mode,
  machine,
  modesFrom,
  nextSlot,
  type Queryable,
  readPipeline,
  scheduleAll,
  seed,
  serverEnvironment,
  sleep,
  spread,
  startCluster,
  waitForMessages,
} from './burst-kit';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

const POOL = envNumber('POOL', 400);
const SUBSCRIBERS = envNumber('SUBSCRIBERS', 1);
const WORKERS = envNumber('WORKERS', 1);
const LATENCY = { min: envNumber('LATENCY_MIN_MS', 50), max: envNumber('LATENCY_MAX_MS', 300) };
const LEAD_MS = envNumber('LEAD_SECONDS', 20) * 1000;
const STALL_MS = envNumber('STALL_SECONDS', 600) * 1000;
const TIMEOUT_MS = envNumber('TIMEOUT_MINUTES', 40) * 60_000;

/** A burst of `digests` digests with the server running and the sink listening, ready to be disturbed. */
interface Burst {
  mode: Mode;
  database: BenchDatabase;
  /** Open while the server runs on PostgreSQL; closed on PGlite (the server holds DATA_DIR). */
  db: Queryable;
  sink: SmtpSink;
  cluster: Cluster;
  slot: Date;
  expected: number;
  /** Stops everything; the servers' logs are deleted when `keepLogs` is false. */
  dispose(keepLogs: boolean): Promise<void>;
}

async function startBurst(mode: Mode, digests: number, fakes: FakeProviders): Promise<Burst> {
  const database = await createBenchDatabase(mode);
  const sink = await startSmtpSink();
  const db = await database.open();
  await seed(db, {
    digests,
    pool: POOL,
    sourcesPerDigest: 5,
    subscribersPerDigest: SUBSCRIBERS,
    feedUrl: (n) => `${fakes.origin}/feeds/pool/${n}.xml`,
  });
  const slot = nextSlot(LEAD_MS);
  await scheduleAll(db, slot);
  if (mode === 'embedded') await database.close();
  const logDir = await mkdtemp(path.join(os.tmpdir(), `digest-reliability-logs-${mode}-`));
  const cluster = await startCluster({
    database,
    env: serverEnvironment(database, sink, {}),
    workers: WORKERS,
    logDir,
  });
  console.log(`${mode}: ${digests} digests due at ${slot.toISOString()}`);
  return {
    mode,
    database,
    db,
    sink,
    cluster,
    slot,
    expected: digests * (1 + SUBSCRIBERS),
    dispose: async (keepLogs) => {
      await cluster.stop();
      await sink.stop();
      await database.dispose();
      if (keepLogs || process.env.KEEP_LOGS) console.log(`server logs kept in ${logDir}`);
      else await rm(logDir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL only (the bench reads the tables while the server runs): nothing left to do. */
async function pipelineSettled(db: Queryable, digests: number): Promise<boolean> {
  const { rows } = await db.query<{ open: number; runs: number }>(
    `select (select count(*) from deliveries where state in ('pending', 'sending'))::int
          + (select count(*) from issue_runs where status = 'queued')::int as open,
            (select count(*) from issue_runs)::int as runs`,
  );
  return rows[0]?.open === 0 && rows[0]?.runs === digests;
}

interface Verdict {
  /** Outcome → number of (digest, slot, recipient). */
  outcomes: Map<string, number>;
  /** Recipients the digests have (owner + subscribed friends) with no delivery row. */
  missing: number;
  /** Messages at the sink whose Message-ID is no delivery's. */
  unknownMessages: number;
  /**
   * Rows sent by a later attempt than the first: in a crash run, those the killed worker had claimed but
   * not finished (before their final dot), claimed again; with a healthy sink nothing else retries.
   */
  sentAgain: number;
  exactlyOnce: boolean;
}

/** Each delivery row against the sink's copies of its Message-ID. */
async function verifyDeliveries(db: Queryable, sink: SmtpSink): Promise<Verdict> {
  const { rows } = await db.query<{ messageId: string; state: string; attempts: number }>(
    'select message_id as "messageId", state, attempts from deliveries',
  );
  const copies = new Map<string, number>();
  for (const message of sink.messages)
    copies.set(message.messageId, (copies.get(message.messageId) ?? 0) + 1);
  const outcomes = new Map<string, number>();
  const add = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  const known = new Set<string>();
  for (const row of rows) {
    known.add(row.messageId);
    const received = copies.get(row.messageId) ?? 0;
    if (received > 1) add(`DUPLICATE (${row.state}, ${received} copies)`);
    else if (row.state === 'sent')
      add(received === 1 ? 'sent, received once' : 'LOST (sent, never received)');
    else if (row.state === 'uncertain')
      add(received === 1 ? 'uncertain, received once' : 'uncertain, not received');
    else if (row.state === 'pending' || row.state === 'sending') add(`STUCK (${row.state})`);
    else add(`${row.state}${received === 1 ? ', received once' : ''}`);
  }
  const expected = await db.query<{ missing: number }>(
    `with recipients as (
       select d.digest_id, u.email as recipient from digests d join users u on u.user_id = d.user_id
       union all
       select s.digest_id, s.email from digest_subscribers s where s.status = 'subscribed' and s.removed_at is null)
     select count(*)::int as missing from recipients r
     where not exists (select 1 from deliveries x where x.digest_id = r.digest_id and x.recipient = r.recipient)`,
  );
  const unknownMessages = [...copies.keys()].filter((id) => !known.has(id)).length;
  const missing = expected.rows[0]?.missing ?? 0;
  const bad = [...outcomes.keys()].some((outcome) => /^(DUPLICATE|LOST|STUCK)/.test(outcome));
  const sentAgain = rows.filter((row) => row.state === 'sent' && row.attempts > 1).length;
  return {
    outcomes,
    missing,
    unknownMessages,
    sentAgain,
    exactlyOnce: !bad && missing === 0 && unknownMessages === 0,
  };
}

function printVerdict(verdict: Verdict) {
  for (const [outcome, count] of [...verdict.outcomes].sort()) console.log(`| ${outcome} | ${count} |`);
  console.log(`| recipients without a delivery row | ${verdict.missing} |`);
  console.log(`| messages with no delivery row | ${verdict.unknownMessages} |`);
  console.log(`| sent by a later attempt (attempts > 1) | ${verdict.sentAgain} |`);
  console.log(`| **exactly once or uncertain, none lost** | **${verdict.exactlyOnce ? 'yes' : 'NO'}** |`);
}

async function crashRun(fakes: FakeProviders) {
  const digests = envNumber('CRASH_N', 2000);
  const killAt = envNumber('KILL_AT', 0.3);
  const restartAfterMs = envNumber('RESTART_AFTER_SECONDS', 5) * 1000;
  const burst = await startBurst('postgres', digests, fakes);
  let clean = false;
  try {
    let killed: { at: number; received: number; restarted?: number } | undefined;
    const crash = async () => {
      killed = { at: Date.now(), received: burst.sink.messages.length };
      const workers = burst.cluster.workers.splice(0);
      await Promise.all(workers.map((worker) => worker.kill()));
      console.log(
        `crash: SIGKILL ${workers.length} worker(s) at ${killed.received}/${burst.expected} messages`,
      );
      await sleep(restartAfterMs);
      for (const _ of workers) await burst.cluster.addWorker();
      killed.restarted = Date.now();
      console.log(`crash: ${workers.length} worker(s) started again`);
    };
    let crashing: Promise<void> | undefined;
    const outcome = await waitForMessages(burst.sink, {
      expected: burst.expected,
      slot: burst.slot,
      stallMs: STALL_MS,
      timeoutMs: TIMEOUT_MS,
      onProgress: (received) => {
        if (!crashing && received >= burst.expected * killAt) crashing = crash();
      },
      isDone: async () => killed?.restarted !== undefined && (await pipelineSettled(burst.db, digests)),
    });
    await crashing;
    const last = Math.max(...burst.sink.messages.map((message) => message.arrivedAt));
    const pipeline = await readPipeline(burst.db, burst.slot);
    const verdict = await verifyDeliveries(burst.db, burst.sink);
    clean = verdict.exactlyOnce;
    console.log(
      `\nCrash run: ${digests} digests × ${1 + SUBSCRIBERS} recipients on PostgreSQL, ${WORKERS} worker process(es) SIGKILLed; ${machine()}`,
    );
    console.log('\n| Measure | value |\n|---|---|');
    console.log(`| outcome | ${outcome} |`);
    console.log(
      `| messages at the sink when killed | ${killed?.received ?? 'never killed'} of ${burst.expected} |`,
    );
    console.log(`| worker(s) down | ${restartAfterMs / 1000} s |`);
    console.log(
      `| last message after the restart | ${killed?.restarted ? ((last - killed.restarted) / 1000).toFixed(1) : '–'} s |`,
    );
    console.log(`| issue runs | ${JSON.stringify(pipeline.runs)} |`);
    console.log(`| deliveries | ${JSON.stringify(pipeline.deliveries)} |`);
    console.log(`| sent lateness p50 / p99 / max | ${spread(pipeline.sentLateness)} |`);
    printVerdict(verdict);
  } finally {
    await burst.dispose(!clean);
  }
}

async function outageRun(mode: Mode, fakes: FakeProviders) {
  const digests = envNumber('OUTAGE_N', 500);
  const outageAt = envNumber('OUTAGE_AT', 0.2);
  const outageMs = envNumber('OUTAGE_SECONDS', 120) * 1000;
  const burst = await startBurst(mode, digests, fakes);
  let clean = false;
  try {
    let outage: { stopped: number; received: number; restarted?: number } | undefined;
    const stopSink = async () => {
      await burst.sink.stop();
      outage = { stopped: Date.now(), received: burst.sink.messages.length };
      console.log(`outage: SMTP sink stopped at ${outage.received}/${burst.expected} messages`);
      await sleep(outageMs);
      await burst.sink.start();
      outage.restarted = Date.now();
      console.log('outage: SMTP sink listening again');
    };
    let stopping: Promise<void> | undefined;
    const outcome = await waitForMessages(burst.sink, {
      expected: burst.expected,
      slot: burst.slot,
      stallMs: STALL_MS + outageMs,
      timeoutMs: TIMEOUT_MS,
      onProgress: (received) => {
        if (!stopping && received >= burst.expected * outageAt) stopping = stopSink();
      },
    });
    await stopping;
    const restarted = outage?.restarted ?? Number.NaN;
    const after = burst.sink.messages.filter((message) => message.arrivedAt >= restarted);
    const last = Math.max(...after.map((message) => message.arrivedAt));
    const during = burst.sink.messages.filter(
      (message) => outage && message.arrivedAt > outage.stopped && message.arrivedAt < restarted,
    ).length;
    await burst.cluster.stop();
    // PGlite: the tables can be read once the server has let go of DATA_DIR.
    const db = mode === 'embedded' ? await burst.database.open() : burst.db;
    const pipeline = await readPipeline(db, burst.slot);
    const verdict = await verifyDeliveries(db, burst.sink);
    clean = verdict.exactlyOnce;
    console.log(
      `\nOutage run (${mode}): ${digests} digests × ${1 + SUBSCRIBERS} recipients, SMTP server down ${outageMs / 1000} s; ${machine()}`,
    );
    console.log('\n| Measure | value |\n|---|---|');
    console.log(`| outcome | ${outcome} |`);
    console.log(`| messages before the outage | ${outage?.received ?? 'no outage'} of ${burst.expected} |`);
    console.log(`| messages received while down | ${during} |`);
    console.log(`| messages after it came back | ${after.length} |`);
    console.log(`| **drain time** (back up → last message) | ${((last - restarted) / 1000).toFixed(1)} s |`);
    console.log(`| delivery retries (attempts − 1) | ${pipeline.retries} |`);
    console.log(`| issue runs | ${JSON.stringify(pipeline.runs)} |`);
    console.log(`| deliveries | ${JSON.stringify(pipeline.deliveries)} |`);
    console.log(`| sent lateness p50 / p99 / max | ${spread(pipeline.sentLateness)} |`);
    printVerdict(verdict);
  } finally {
    await burst.dispose(!clean);
  }
}

async function main() {
  buildServer();
  const fakes = await startFakeProviders({ providers: [feedPoolFake({ latencyMs: LATENCY })] });
  try {
    const runs = (process.env.RUNS ?? 'crash,outage').split(',');
    if (runs.includes('crash')) await crashRun(fakes);
    if (runs.includes('outage')) {
      for (const mode of modesFrom(process.env.OUTAGE_MODE, 'postgres')) await outageRun(mode, fakes);
    }
  } finally {
    await fakes.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
