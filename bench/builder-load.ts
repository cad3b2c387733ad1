#!/usr/bin/env node
// The builder's load: the JavaScript a first visit downloads (gzip) and the time from opening
// /digestCreator to the builder's 'Popular' list of sources on screen, in Chromium.
//
//   npx tsx bench/builder-load.ts               builds web and server, then measures
//   SKIP_BUILD=1 RUNS=15 npx tsx bench/builder-load.ts
//
// The server is the real program (`node apps/server/dist/main.js`, embedded database, LOG_LEVEL=warn) on a
// free port. Each run is a new browser context (empty HTTP cache, like a first visit) with the user's token
// in local storage. Timed twice: unthrottled, and with Chromium's CPU slowed 4× on a 10 Mbit/s, 40 ms link
// (a mid-range phone on a decent mobile network).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from '@playwright/test';
import { freePort, waitForHealth } from './burst-kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 10);
const DIST = path.join(root, 'apps/web/dist');

interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

async function signUp(base: string): Promise<TokenPair> {
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
  const { token } = (await signin.json()) as { token: TokenPair };
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
  return token;
}

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
/** What the server actually sends to a browser that accepts Brotli (the build's .br copies). */
const brotliBytes = (file: string) =>
  brotliCompressSync(readFileSync(path.join(DIST, file)), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Opens `pathname` in a fresh context and answers the JS files it fetched and ms until `ready` shows. */
async function visit(
  browser: Browser,
  base: string,
  token: TokenPair,
  pathname: string,
  ready: (page: Page) => Promise<void>,
  throttled: boolean,
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((pair) => localStorage.setItem('token', JSON.stringify(pair)), token);
  const page = await context.newPage();
  if (throttled) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: (10 * 1024 * 1024) / 8,
      uploadThroughput: (5 * 1024 * 1024) / 8,
    });
  }
  const scripts = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname.slice(1));
  });
  const started = Date.now();
  await page.goto(`${base}${pathname}`);
  await ready(page);
  const ms = Date.now() - started;
  await context.close();
  return { ms, scripts: [...scripts] };
}

const popularShown = (page: Page) =>
  page
    .getByRole('button', { name: /Weather/ })
    .first()
    .waitFor({ state: 'visible', timeout: 60_000 });
const digestsShown = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Bench Reader Digests' }).waitFor({ timeout: 60_000 });

async function main() {
  if (!process.env.SKIP_BUILD) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-bench-builder-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    await waitForHealth(base);
    const token = await signUp(base);

    // What a first visit downloads: the Digests page, then the builder on top of it.
    const digests = await visit(browser, base, token, '/digests', digestsShown, false);
    const builder = await visit(browser, base, token, '/digestCreator', popularShown, false);
    const firstLoad = digests.scripts.reduce((sum, file) => sum + gzipBytes(file), 0);
    const builderOnly = builder.scripts.filter((file) => !digests.scripts.includes(file));
    const builderExtra = builderOnly.reduce((sum, file) => sum + gzipBytes(file), 0);
    const sum = (files: string[], size: (file: string) => number) =>
      files.reduce((total, file) => total + size(file), 0);
    console.log(
      `first-load JS (/digests): ${digests.scripts.length} files, ${kB(firstLoad)} gzip, ` +
        `${kB(sum(digests.scripts, brotliBytes))} Brotli (sent)`,
    );
    console.log(
      `builder adds: ${builderOnly.length} files, ${kB(builderExtra)} gzip, ${kB(sum(builderOnly, brotliBytes))} Brotli`,
    );
    console.log(`opening /digestCreator directly: ${kB(firstLoad + builderExtra)} gzip`);

    for (const throttled of [false, true]) {
      const times = [];
      for (let run = 0; run < RUNS; run++) {
        times.push((await visit(browser, base, token, '/digestCreator', popularShown, throttled)).ms);
      }
      const label = throttled ? 'CPU 4×, 10 Mbit/s, 40 ms' : 'unthrottled';
      console.log(
        `open builder → Popular shown (${label}): median ${median(times)} ms, ` +
          `min ${Math.min(...times)} ms, max ${Math.max(...times)} ms over ${RUNS} cold runs`,
      );
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
