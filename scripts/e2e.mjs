// `npm run test:e2e`: the Playwright specs against the real server on a free port with a temporary
// DATA_DIR, in Debian's Chromium. The server sends its mail to a real SMTP server started here, which
// writes each message it receives to E2E_MAIL_DIR for the specs to read (test/e2e/support/mailbox.ts).
// Every provider, Google sign-in and the connected accounts' OAuth servers included, is the fake
// providers (test/fakes). The server receives newsletters by SMTP on E2E_INBOUND_PORT
// (test/e2e/support/newsletters.ts sends them). Without Chromium they are skipped with the reason, unless
// E2E_REQUIRED=1 (CI), which makes that a failure.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
const mailDir = path.join(dataDir, 'received-mail');
await mkdir(mailDir);

const { SMTPServer } = await import('smtp-server');
let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', async () => {
      received += 1;
      const name = `${String(received).padStart(5, '0')}.eml`;
      const envelope = JSON.stringify({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
      await writeFile(path.join(mailDir, `${name}.json`), envelope);
      await writeFile(path.join(mailDir, name), Buffer.concat(chunks));
      callback();
    });
  },
});
const smtpPort = await freePort();
await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

// The fake providers (test/fakes, TypeScript, hence tsx) answer every provider API the sources call.
const fakes = spawn(process.execPath, ['--import', 'tsx', 'test/fakes/main.ts'], {
  env: { ...process.env, FAKE_PROVIDERS_PORT: String(await freePort()), FAKE_PROVIDERS_LATENCY_MS: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const fakesEnv = await new Promise((resolve, reject) => {
  let output = '';
  fakes.once('exit', (code) => reject(new Error(`e2e: the fake providers exited (${code})`)));
  fakes.stdout.on('data', (chunk) => {
    output += chunk;
    const line = output.split('\n').find((candidate) => candidate.startsWith('FAKES_ENV_JSON='));
    if (line) resolve(line.slice('FAKES_ENV_JSON='.length));
  });
});

const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    E2E_PORT: String(await freePort()),
    E2E_INBOUND_PORT: String(await freePort()),
    E2E_DATA_DIR: dataDir,
    E2E_MAIL_DIR: mailDir,
    E2E_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    E2E_FAKES_ENV: fakesEnv,
  },
});
const status = await new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
await new Promise((resolve) => smtp.close(resolve));
fakes.kill('SIGTERM');
await rm(dataDir, { recursive: true, force: true });
process.exit(status);
