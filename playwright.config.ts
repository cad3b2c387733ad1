import { defineConfig } from '@playwright/test';

// scripts/e2e.mjs chooses a free port and a temporary DATA_DIR and passes them in.
const port = process.env.E2E_PORT ?? '3100';
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'test/e2e',
  // Two runs at once (CI runs the embedded and the PostgreSQL one side by side) each name their own.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e',
  workers: 1,
  // Two databases' runs share two cores in CI, and some specs visit a dozen pages with axe on each.
  timeout: 120_000,
  // Playwright's 5 s for an assertion is a fast machine's figure: CI once ran the browser specs three times
  // slower than usual (36 min, both databases side by side) and a page's first heading missed 5 s.
  expect: { timeout: process.env.CI ? 15_000 : 5_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: process.env.E2E_REPORT ?? 'test-results/e2e.json' }]]
    : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      // Every provider the sources call points at the fake providers (scripts/e2e.mjs starts them).
      ...(process.env.E2E_FAKES_ENV ? JSON.parse(process.env.E2E_FAKES_ENV) : {}),
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      // The specs give each sign-up its own address with X-Forwarded-For (per-address sign-up limits).
      TRUST_PROXY: 'true',
      PORT: port,
      HOST: '127.0.0.1',
      APP_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR ?? 'test-results/e2e-data',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ...(process.env.E2E_SMTP_URL ? { SMTP_URL: process.env.E2E_SMTP_URL } : {}),
      // The inbound role receives newsletters here (test/e2e/support/newsletters.ts sends them).
      ...(process.env.E2E_INBOUND_PORT
        ? { INBOUND_SMTP_PORT: process.env.E2E_INBOUND_PORT, INBOUND_SMTP_HOST: '127.0.0.1' }
        : {}),
      LOG_LEVEL: 'warn',
      // Every help link must carry the server's address (test/e2e/legal.spec.ts).
      SUPPORT_EMAIL: 'help@digest.test',
    },
  },
});
