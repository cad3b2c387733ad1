#!/usr/bin/env node
// The web app's first load: the JavaScript a first visit downloads (gzip -9 and Brotli) for /login (a
// stranger) and /digests (signed in), what opening the builder adds, the log-in page's time to interactive,
// the signed-in /digests page's time to its list and the builder's time to its 'Popular' list, in Chromium.
//
//   npx tsx bench/builder-load.ts                              builds web and server, then measures
//   SKIP_BUILD=1 RUNS=15 npx tsx bench/builder-load.ts
//   SKIP_BUILD=1 COMPARE=/tmp/before npx tsx bench/builder-load.ts
//
// PROFILE=1 also records a CPU profile of one throttled cold visit to /login per checkout and prints the
// functions with the most self time.
//
// COMPARE names another checkout, already built (`npm run build` there): both are measured in the same run,
// their timed visits interleaved (A, B, A, B…) so that the machine's load falls on both alike.
//
// Each checkout's server is the real program (`node apps/server/dist/main.js`, embedded database,
// LOG_LEVEL=warn) on a free port. Each visit is a new browser context (empty HTTP cache, like a first visit);
// a signed-in visit carries the session's refresh cookie, as a returning browser does. Timed visits run
// with Chromium's CPU slowed 4× on a 10 Mbit/s, 40 ms link (a mid-range phone on a decent mobile network),
// and the builder's also unthrottled.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, type Cookie, chromium, type Page } from '@playwright/test';
import { freePort, waitForHealth } from './burst-kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 10);
/** How long the main thread must stay free of long tasks after the form shows for the page to count as interactive. */
const QUIET_MS = Number(process.env.QUIET_MS ?? 500);
const INTERACTIVE_GOAL_MS = 1500;

interface Target {
  label: string;
  root: string;
  base: string;
  server: ChildProcess;
  dataDir: string;
  /** The signed-in user's refresh cookie, carried from visit to visit (each refresh replaces it). */
  cookies: Cookie[];
}

async function signIn(base: string): Promise<Cookie[]> {
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
    headers: { 'content-type': 'application/json', 'x-digest-session': '1' },
    body: JSON.stringify(credentials),
  });
  if (signin.status !== 200) throw new Error(`sign-in: ${signin.status} ${await signin.text()}`);
  const { token } = (await signin.json()) as { token: { accessToken: string } };
  const profile = await fetch(`${base}/api/users/me`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.accessToken}` },
    body: JSON.stringify({
      fullName: 'Bench Reader',
      username: `bench${randomBytes(3).toString('hex')}`,
      timezone: { timezone: 'UTC', locale: 'en-US', offset: 0 },
    }),
  });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${await profile.text()}`);
  const { hostname } = new URL(base);
  return signin.headers.getSetCookie().map((header) => {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const at = pair.indexOf('=');
    const cookiePath = attributes.find((part) => /^path=/i.test(part))?.slice(5) ?? '/';
    return {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      domain: hostname,
      path: cookiePath,
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Strict' as const,
    };
  });
}

async function start(label: string, checkout: string): Promise<Target> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-bench-web-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: checkout,
    // APP_URL: the refresh route accepts requests whose Origin is the app's own.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // On a busy machine (load 20+ on 2 cores) the first start, migrations and job schema, takes over a minute.
  await waitForHealth(base, 180_000);
  return { label, root: checkout, base, server, dataDir, cookies: await signIn(base) };
}

async function stop(target: Target) {
  target.server.kill('SIGTERM');
  await new Promise((resolve) => target.server.once('exit', resolve));
  await rm(target.dataDir, { recursive: true, force: true });
}

const read = (target: Target, file: string) => readFileSync(path.join(target.root, 'apps/web/dist', file));
const gzipBytes = (target: Target, files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(read(target, file), { level: 9 }).length, 0);
/** What the server actually sends to a browser that accepts Brotli (the build's .br copies). */
const brotliBytes = (target: Target, files: string[]) =>
  files.reduce(
    (sum, file) =>
      sum +
      brotliCompressSync(read(target, file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    0,
  );
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function throttle(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: (10 * 1024 * 1024) / 8,
    uploadThroughput: (5 * 1024 * 1024) / 8,
  });
}

/**
 * Opens `pathname` in a fresh context (signed in or not) and answers the script files fetched until `ready`
 * answered, with the ms `ready` reports (or the wall time from `goto` to it).
 */
async function visit(
  browser: Browser,
  target: Target,
  pathname: string,
  options: { signedIn: boolean; throttled: boolean; ready: (page: Page) => Promise<number | undefined> },
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (options.signedIn) await context.addCookies(target.cookies);
  await context.addInitScript(watchLongTasks);
  const page = await context.newPage();
  if (options.throttled) await throttle(context, page);
  const scripts = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname.slice(1));
  });
  const started = Date.now();
  await page.goto(`${target.base}${pathname}`);
  const reported = await options.ready(page).catch(async (error: unknown) => {
    const shot = path.join(os.tmpdir(), `builder-load-failed-${Date.now()}.png`);
    await page.screenshot({ path: shot });
    throw new Error(`${target.label} ${pathname}: ${String(error)} (screenshot: ${shot})`);
  });
  const ms = reported ?? Date.now() - started;
  const files = [...scripts];
  if (options.signedIn) {
    target.cookies = (await context.cookies()).filter((cookie) =>
      target.cookies.some((c) => c.name === cookie.name),
    );
  }
  await context.close();
  return { ms, files };
}

/** Runs in the page before its scripts: records when each long task (> 50 ms) ended, in page time. */
function watchLongTasks() {
  const ends: number[] = [];
  (window as unknown as { longTaskEnds: number[] }).longTaskEnds = ends;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) ends.push(entry.startTime + entry.duration);
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * "Interactive", for the log-in page: from navigation start (performance.timeOrigin) until the e-mail form
 * is on screen, rendered by React, and the main thread has then had no long task for QUIET_MS; the time is
 * the later of the form's appearance and the end of the last long task. Then, untimed, it checks the
 * handlers are attached: Log in with empty fields shows the form's own message without a request.
 */
async function loginInteractive(page: Page): Promise<number> {
  await page.getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 60_000 });
  const shownAt = await page.evaluate(() => performance.now());
  for (;;) {
    const { now, lastLongTask } = await page.evaluate(() => ({
      now: performance.now(),
      lastLongTask: Math.max(0, ...(window as unknown as { longTaskEnds: number[] }).longTaskEnds),
    }));
    const interactiveAt = Math.max(shownAt, lastLongTask);
    if (now - interactiveAt >= QUIET_MS) {
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('This field is required').first().waitFor({ timeout: 10_000 });
      return Math.round(interactiveAt);
    }
    await page.waitForTimeout(50);
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

/** The functions with the most self time in one throttled cold visit to /login, until it is interactive. */
async function profileLogin(browser: Browser, target: Target, top = 12): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(watchLongTasks);
  const page = await context.newPage();
  await throttle(context, page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  await page.goto(`${target.base}/login`);
  await loginInteractive(page);
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await context.close();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = nodes.get(id)?.callFrame;
    const file = frame?.url ? (frame.url.split('/').pop() ?? '') : '';
    const key = `${frame?.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((sum, ms) => sum + ms, 0);
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([key, ms]) =>
        `${ms.toFixed(0).padStart(6)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
    );
}

const loginShown = async (page: Page) => {
  await page.getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 60_000 });
  return undefined;
};
const digestsShown = async (page: Page) => {
  await page.getByRole('heading', { level: 1, name: 'Bench Reader Digests' }).waitFor({ timeout: 60_000 });
  return undefined;
};
const popularShown = async (page: Page) => {
  await page
    .getByRole('button', { name: /Weather/ })
    .first()
    .waitFor({ state: 'visible', timeout: 60_000 });
  return undefined;
};

function table(header: string[], rows: string[][]) {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

async function main() {
  if (!process.env.SKIP_BUILD) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const checkouts: [string, string][] = [['this checkout', root]];
  if (process.env.COMPARE) checkouts.unshift([`COMPARE (${process.env.COMPARE})`, process.env.COMPARE]);
  console.log(
    `load: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} (1, 5, 15 min), ${os.cpus().length} cores`,
  );
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const targets: Target[] = [];
  try {
    for (const [label, checkout] of checkouts) targets.push(await start(label, checkout));

    const rows: string[][] = [];
    const add = (measure: string, value: (target: Target) => string) =>
      rows.push([measure, ...targets.map(value)]);
    const sizes = new Map<Target, Record<string, { files: string[] }>>();
    for (const target of targets) {
      const login = await visit(browser, target, '/login', {
        signedIn: false,
        throttled: false,
        ready: loginShown,
      });
      const digests = await visit(browser, target, '/digests', {
        signedIn: true,
        throttled: false,
        ready: digestsShown,
      });
      const builder = await visit(browser, target, '/digestCreator', {
        signedIn: true,
        throttled: false,
        ready: popularShown,
      });
      sizes.set(target, {
        login,
        digests,
        builder: { files: builder.files.filter((file) => !digests.files.includes(file)) },
      });
    }
    const size = (key: string) => (target: Target) => {
      const files = sizes.get(target)?.[key]?.files ?? [];
      return `${files.length} files, ${kB(gzipBytes(target, files))} gzip, ${kB(brotliBytes(target, files))} Brotli`;
    };
    add('first-load JS, /login (stranger)', size('login'));
    add('first-load JS, /digests (signed in)', size('digests'));
    add('builder adds (on top of /digests)', size('builder'));

    const timed = async (
      measure: string,
      pathname: string,
      options: { signedIn: boolean; throttled: boolean; ready: (page: Page) => Promise<number | undefined> },
    ) => {
      const times = new Map<Target, number[]>(targets.map((target) => [target, []]));
      for (let run = 0; run < RUNS; run++) {
        for (const target of targets)
          times.get(target)?.push((await visit(browser, target, pathname, options)).ms);
      }
      add(measure, (target) => {
        const values = times.get(target) ?? [];
        return `median ${median(values)} ms (min ${Math.min(...values)}, max ${Math.max(...values)})`;
      });
    };
    await timed(`/login interactive, CPU 4×, 10 Mbit/s, 40 ms (goal ≤ ${INTERACTIVE_GOAL_MS} ms)`, '/login', {
      signedIn: false,
      throttled: true,
      ready: loginInteractive,
    });
    // A signed-in page outside the entry chunk: its chunks come from the server's preloads, or a round trip later.
    await timed('open /digests → list shown, CPU 4×, 10 Mbit/s, 40 ms', '/digests', {
      signedIn: true,
      throttled: true,
      ready: digestsShown,
    });
    await timed('open builder → Popular shown, unthrottled', '/digestCreator', {
      signedIn: true,
      throttled: false,
      ready: popularShown,
    });
    await timed('open builder → Popular shown, CPU 4×, 10 Mbit/s, 40 ms', '/digestCreator', {
      signedIn: true,
      throttled: true,
      ready: popularShown,
    });
    if (process.env.PROFILE) {
      for (const target of targets) {
        console.log(`\nCPU profile of one throttled cold visit to /login, ${target.label}: most self time`);
        for (const line of await profileLogin(browser, target)) console.log(line);
      }
    }
    console.log(
      `\n${RUNS} cold runs per timed figure; interactive = form shown and then ${QUIET_MS} ms without a long task.`,
    );
    table(['Measure', ...targets.map((target) => target.label)], rows);
    console.log(
      `load after: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser.close();
    for (const target of targets) await stop(target);
  }
}

await main();
