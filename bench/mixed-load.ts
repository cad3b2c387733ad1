/**
 * Mixed load (issue 15): USERS simulated people use the app at once for DURATION seconds, each going round
 * what a person does in a visit: sign in, list their digests, open one, read two of its issues, preview a
 * source in the builder (from the fake providers), open a public page. Each step is the requests the web
 * app makes for it, with a random think time between steps. Every answer must have the status the step
 * expects; the figures are per step and overall latencies, requests/s and errors.
 *
 *   npx tsx bench/mixed-load.ts                builds the server; MODE=postgres USERS=200 DURATION=300
 *   SKIP_BUILD=1 MODE=both USERS=50 DURATION=60 npx tsx bench/mixed-load.ts
 *   THINK_MIN_MS=500 THINK_MAX_MS=2000 …       the pause between two steps of one user
 *   PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres   where the throw-away database is created
 *
 * The server is the real program (`node apps/server/dist/main.js`, every role, one process), its providers
 * pointed at the fake providers; the people run in this process. Each person has their own address
 * (`X-Forwarded-For`, with TRUST_PROXY=true) as real visitors would, so the per-address limits apply to
 * each as in production rather than all of them sharing 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeProviders } from '#test/fakes/fake-providers';
import { allFakeProviders } from '#test/fakes/providers';
import { feedPoolFake } from '#test/fakes/providers/feed-pool';
import {
  buildServer,
  createBenchDatabase,
  envNumber,
  freePort,
  type Mode,
  machine,
  modesFrom,
  percentile,
  type Queryable,
  ROOT,
  sleep,
  startServer,
  waitForHealth,
} from './burst-kit';

const USERS = envNumber('USERS', 200);
const DURATION_MS = envNumber('DURATION', 300) * 1000;
const RAMP_MS = envNumber('RAMP_SECONDS', 30) * 1000;
const THINK = { min: envNumber('THINK_MIN_MS', 500), max: envNumber('THINK_MAX_MS', 2000) };
const DIGESTS_PER_USER = envNumber('DIGESTS_PER_USER', 3);
const ISSUES_PER_DIGEST = envNumber('ISSUES_PER_DIGEST', 12);
/** Feeds a preview draws from: enough that some previews miss the content cache and reach the fakes. */
const PREVIEW_FEEDS = envNumber('PREVIEW_FEEDS', 2000);
/** The fakes answer fast: the figure is the server's own latency, not a provider's (real ones take 0.1–1 s). */
const FAKE_LATENCY = { min: envNumber('FAKE_LATENCY_MIN_MS', 10), max: envNumber('FAKE_LATENCY_MAX_MS', 40) };
/** A person signs in again after this long (a new visit); the rest of the time the token is reused. */
const SESSION_MS = envNumber('SESSION_SECONDS', 120) * 1000;
const PASSWORD = 'mixed load passw0rd!';

type Step = 'sign in' | 'list' | 'open digest' | 'read issue' | 'preview' | 'public page';
const STEPS: Step[] = ['sign in', 'list', 'open digest', 'read issue', 'preview', 'public page'];

interface Sample {
  step: Step;
  ms: number;
  at: number;
}

interface Failure {
  step: Step;
  what: string;
}

class Recorder {
  readonly samples: Sample[] = [];
  readonly failures: Failure[] = [];
  requests = 0;
  constructor(private readonly measuring: () => boolean) {}

  /** Times one request; a status other than `expect` (or a network error) is a failure. */
  async request(step: Step, url: string, init: RequestInit, expect = 200): Promise<Response | undefined> {
    const started = performance.now();
    try {
      const response = await fetch(url, init);
      const body = await response.arrayBuffer();
      const ms = performance.now() - started;
      if (this.measuring()) {
        this.requests += 1;
        this.samples.push({ step, ms, at: Date.now() });
        if (response.status !== expect)
          this.failures.push({
            step,
            what: `${response.status} ${Buffer.from(body).toString().slice(0, 120)}`,
          });
      }
      return response.status === expect
        ? new Response(body, { status: response.status, headers: response.headers })
        : undefined;
    } catch (error) {
      if (this.measuring()) {
        this.requests += 1;
        this.failures.push({ step, what: (error as Error).message });
      }
      return undefined;
    }
  }
}

interface Person {
  index: number;
  email: string;
  /** The visitor's own address (X-Forwarded-For). */
  address: string;
  digestIds: string[];
  shareTokens: string[];
}

const json = (body: unknown) => JSON.stringify(body);
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)] as T;
const think = () => sleep(THINK.min + Math.random() * (THINK.max - THINK.min));

function addressOf(index: number) {
  return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
}

/** Sign-up, sign-in and the person's digests, through the API as the web app does it. */
async function createPerson(base: string, index: number, feedUrl: (n: number) => string): Promise<Person> {
  const person: Person = {
    index,
    email: `person${index}-${randomBytes(3).toString('hex')}@mixed.example.com`,
    address: addressOf(index + 1),
    digestIds: [],
    shareTokens: [],
  };
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': person.address };
  const signup = await fetch(`${base}/api/auth/signup/email`, {
    method: 'POST',
    headers,
    body: json({ email: person.email, password: PASSWORD, confirmed: true }),
  });
  if (signup.status !== 202) throw new Error(`sign-up: ${signup.status} ${await signup.text()}`);
  const authorization = await signIn(base, person);
  for (let k = 0; k < DIGESTS_PER_USER; k++) {
    const created = await fetch(`${base}/api/digests`, {
      method: 'POST',
      headers: { ...headers, authorization },
      body: json({
        name: `Reading ${index}-${k}`,
        scheduleType: pick(['daily', 'weekly', 'monthly']),
        sources: [
          { type: 'DATE' },
          { type: 'WEATHER', locationName: 'Warsaw, Poland', latitude: 52.23, longitude: 21.01 },
          { type: 'HACKER_NEWS' },
          { type: 'RSS', feedLink: feedUrl(index * 7 + k), sourceName: `Feed ${index * 7 + k}` },
          { type: 'RSS', feedLink: feedUrl(index * 7 + k + 1), sourceName: `Feed ${index * 7 + k + 1}` },
        ],
      }),
    });
    if (created.status !== 201) throw new Error(`create digest: ${created.status} ${await created.text()}`);
    const { digest } = (await created.json()) as { digest: { digestId: string } };
    person.digestIds.push(digest.digestId);
    if (k === 0) {
      const shared = await fetch(`${base}/api/digests/${digest.digestId}/visibility`, {
        method: 'PUT',
        headers: { ...headers, authorization },
        body: json({ visibility: 'public' }),
      });
      if (shared.status !== 200) throw new Error(`make public: ${shared.status} ${await shared.text()}`);
      const { shareUrl } = (await shared.json()) as { shareUrl: string };
      person.shareTokens.push(new URL(shareUrl).pathname.split('/').pop() as string);
    }
  }
  return person;
}

async function signIn(base: string, person: Person, recorder?: Recorder): Promise<string> {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': person.address },
    body: json({ email: person.email, password: PASSWORD }),
  };
  const response = recorder
    ? await recorder.request('sign in', `${base}/api/auth/signin/email`, init)
    : await fetch(`${base}/api/auth/signin/email`, init);
  if (response?.status !== 200) return '';
  const { token } = (await response.json()) as { token: { accessToken: string } };
  return `Bearer ${token.accessToken}`;
}

/**
 * Issues are what a year of sending leaves: ISSUES_PER_DIGEST stored issues per digest of a realistic
 * size (≈ 40 KB of HTML), written straight into the table (building them would measure the worker, which
 * bench/burst.ts does).
 */
async function storeIssues(db: Queryable, people: Person[]) {
  const paragraph =
    '<p style="margin:0 0 12px">A story worth reading, with a sentence or two of summary.</p>';
  const html = `<!doctype html><html><body>${paragraph.repeat(450)}</body></html>`;
  const digestIds = people.flatMap((person) => person.digestIds);
  for (let number = 1; number <= ISSUES_PER_DIGEST; number++) {
    await db.query(
      `insert into digest_builds (digest_id, build_number, html, text, public_html, created_at)
       select d, $2, $3, 'text', $3, now() - make_interval(days => $4::int)
       from unnest($1::uuid[]) as t(d)`,
      [digestIds, number, html, ISSUES_PER_DIGEST - number],
    );
  }
}

/** One person's visits, until the run ends. */
async function visit(
  base: string,
  person: Person,
  people: readonly Person[],
  recorder: Recorder,
  feedUrl: (n: number) => string,
) {
  const headersOf = (authorization: string) => ({ authorization, 'x-forwarded-for': person.address });
  let authorization = '';
  let signedInAt = 0;
  while (!stopped) {
    if (!authorization || Date.now() - signedInAt > SESSION_MS) {
      authorization = await signIn(base, person, recorder);
      signedInAt = Date.now();
      if (!authorization) {
        await think();
        continue;
      }
    }
    const headers = headersOf(authorization);
    // The dashboard: who is signed in, and the digests.
    await recorder.request('list', `${base}/api/users/me`, { headers });
    await recorder.request('list', `${base}/api/digests`, { headers });
    await think();
    const opened = await recorder.request('open digest', `${base}/api/digests/${pick(person.digestIds)}`, {
      headers,
    });
    await think();
    const builds = opened
      ? (((await opened.json()) as { digest: { builds?: { htmlLink?: string }[] } }).digest.builds ?? [])
      : [];
    for (const build of [pick(builds), pick(builds)]) {
      if (!build?.htmlLink) continue;
      const link = build.htmlLink.startsWith('http') ? build.htmlLink : `${base}${build.htmlLink}`;
      await recorder.request('read issue', link, { headers: { 'x-forwarded-for': person.address } });
      await think();
    }
    const feed = Math.floor(Math.random() * PREVIEW_FEEDS);
    await recorder.request('preview', `${base}/api/data-sources/preview`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: json({ source: { type: 'RSS', feedLink: feedUrl(feed), sourceName: `Feed ${feed}` } }),
    });
    await think();
    // Someone else's public page, as a visitor without an account opens it: the page, then its issue.
    const other = people[Math.floor(Math.random() * people.length)] as Person;
    const token = pick(other.shareTokens);
    const visitor = { 'x-forwarded-for': person.address };
    await recorder.request('public page', `${base}/digests/share/${token}`, { headers: visitor });
    await recorder.request('public page', `${base}/api/digests/share/${token}`, { headers: visitor });
    await think();
  }
}

/** Set when the measured time is over: every person finishes the request in hand and leaves. */
let stopped = false;

interface RunResult {
  mode: Mode;
  seconds: number;
  requests: number;
  samples: Sample[];
  failures: Failure[];
  peakRssMiB: number;
}

async function run(mode: Mode): Promise<RunResult> {
  stopped = false;
  const fakes = await startFakeProviders({
    providers: [feedPoolFake({ latencyMs: FAKE_LATENCY }), ...allFakeProviders],
  });
  const feedUrl = (n: number) => `${fakes.origin}/feeds/pool/${n}.xml`;
  const database = await createBenchDatabase(mode);
  const logDir = await mkdtemp(path.join(os.tmpdir(), `digest-mixed-${mode}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...database.serverEnv,
    ...fakes.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: base,
    APP_SECRET: randomBytes(32).toString('hex'),
    FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    TRUST_PROXY: 'true',
  };
  const start = () => startServer('all roles', env, path.join(logDir, 'server.log'));
  let server = start();
  try {
    await waitForHealth(base);
    const seeding = Date.now();
    const people: Person[] = [];
    // A few at a time: sign-ups hash passwords, and the seeding is not what is measured.
    for (let index = 0; index < USERS; index += 10) {
      const batch = Array.from({ length: Math.min(10, USERS - index) }, (_, k) => index + k);
      people.push(...(await Promise.all(batch.map((k) => createPerson(base, k, feedUrl)))));
    }
    // PGlite is open in one process at a time: the embedded server stops while the issues are written.
    if (mode === 'embedded') await server.stop();
    const db = await database.open();
    await storeIssues(db, people);
    await database.close();
    if (mode === 'embedded') {
      server = start();
      await waitForHealth(base);
    }
    console.log(
      `${mode}: ${USERS} people with ${DIGESTS_PER_USER} digests and ${ISSUES_PER_DIGEST} issues each, ` +
        `seeded in ${Date.now() - seeding} ms`,
    );

    let measuring = false;
    const recorder = new Recorder(() => measuring);
    const started = Date.now();
    const visits = people.map(async (person, index) => {
      // People arrive over RAMP_MS, not all in the same millisecond.
      await sleep((RAMP_MS * index) / people.length);
      await visit(base, person, people, recorder, feedUrl);
    });
    await sleep(RAMP_MS);
    measuring = true;
    const measuredFrom = Date.now();
    await sleep(DURATION_MS);
    measuring = false;
    const seconds = (Date.now() - measuredFrom) / 1000;
    stopped = true;
    await Promise.all(visits);
    console.log(`${mode}: ran ${Math.round((Date.now() - started) / 1000)} s (ramp ${RAMP_MS / 1000} s)`);
    const peakRssMiB = server.peakRssMiB();
    return {
      mode,
      seconds,
      requests: recorder.requests,
      samples: recorder.samples,
      failures: recorder.failures,
      peakRssMiB,
    };
  } finally {
    await server.stop();
    await fakes.close();
    await database.dispose();
    if (process.env.KEEP_LOGS !== '1') await rm(logDir, { recursive: true, force: true });
    else console.log(`logs: ${logDir}`);
  }
}

function print(results: RunResult[]) {
  const ms = (value: number) => `${Math.round(value)}`;
  console.log(
    `\n${machine()}; ${USERS} people, ${DURATION_MS / 1000} s measured after ${RAMP_MS / 1000} s of ramp-up, think ${THINK.min}–${THINK.max} ms\n`,
  );
  for (const result of results) {
    const all = result.samples.map((sample) => sample.ms);
    console.log(
      `${result.mode}: ${result.requests} requests, ${(result.requests / result.seconds).toFixed(0)} req/s, ` +
        `errors ${result.failures.length}, p50 ${ms(percentile(all, 50))} ms, p99 ${ms(percentile(all, 99))} ms, ` +
        `max ${ms(Math.max(0, ...all))} ms, peak RSS ${result.peakRssMiB} MiB`,
    );
    console.log('| step | requests | p50 ms | p95 ms | p99 ms | max ms | errors |');
    console.log('|---|---|---|---|---|---|---|');
    for (const step of STEPS) {
      const values = result.samples.filter((sample) => sample.step === step).map((sample) => sample.ms);
      const errors = result.failures.filter((failure) => failure.step === step).length;
      console.log(
        `| ${step} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ` +
          `${ms(percentile(values, 99))} | ${ms(Math.max(0, ...values))} | ${errors} |`,
      );
    }
    const kinds = new Map<string, number>();
    for (const failure of result.failures) {
      const key = `${failure.step}: ${failure.what}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    for (const [what, count] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 10))
      console.log(`  ${count} × ${what}`);
    console.log('');
  }
}

async function main() {
  if (!process.env.SKIP_BUILD) {
    // The public page is the web app's document: it is built too.
    const web = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
    if (web.status !== 0) throw new Error('npm run build -w apps/web failed');
    buildServer();
  }
  const results: RunResult[] = [];
  for (const mode of modesFrom(process.env.MODE, 'postgres')) results.push(await run(mode));
  print(results);
  if (results.some((result) => result.failures.length > 0)) process.exitCode = 1;
}

await main();
