// `npm run test:e2e`: the Playwright specs against the real server on a free port with a temporary
// DATA_DIR, in Debian's Chromium. Without Chromium they are skipped with the reason, unless
// E2E_REQUIRED=1 (CI), which makes that a failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const reason = `Chromium not found at ${CHROMIUM} (install it with: apt-get install -y chromium)`;
  if (process.env.E2E_REQUIRED === '1') {
    console.error(`e2e: FAILED: ${reason}, and E2E_REQUIRED=1`);
    process.exit(1);
  }
  console.log(`e2e: skipped: ${reason}`);
  process.exit(0);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-e2e-'));
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, E2E_PORT: String(await freePort()), E2E_DATA_DIR: dataDir },
});
await rm(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
