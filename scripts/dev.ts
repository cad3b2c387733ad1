// `npm run dev`: the whole product offline. The fake providers (test/fakes) answer every provider API,
// the server runs from source with reload on change, and Vite serves the web app with hot reload,
// proxying /api to the server. Variables set in the environment win over the fakes' (to try a real
// provider, set its `<PROVIDER>_BASE_URL` and credentials).
import { type ChildProcess, spawn } from 'node:child_process';
import { startFakeProviders } from '../test/fakes/fake-providers';

const fakes = await startFakeProviders({
  port: Number(process.env.FAKE_PROVIDERS_PORT ?? 4010),
  latencyMs: Number(process.env.FAKE_PROVIDERS_LATENCY_MS ?? 50),
});
const env: NodeJS.ProcessEnv = {
  FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  API_DOCS: 'true',
  DATA_DIR: './data-dev',
  APP_URL: 'http://localhost:5173',
  LOG_LEVEL: 'info',
  // The newsletter mailbox receives on a local port: mail to <username>@localhost lands in /newsletters.
  INBOUND_SMTP_PORT: '2525',
  INBOUND_SMTP_HOST: '127.0.0.1',
  ...fakes.env,
  ...process.env,
};
console.log(`dev: fake providers on ${fakes.origin}; app on ${env.APP_URL}`);
console.log(
  `dev: newsletters are received by SMTP on 127.0.0.1:${env.INBOUND_SMTP_PORT}; try: ` +
    `swaks --server 127.0.0.1:${env.INBOUND_SMTP_PORT} --to <username>@localhost --from news@example.com`,
);

const children: ChildProcess[] = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], {
    env,
    stdio: 'inherit',
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web', '--', '--strictPort'], { env, stdio: 'inherit' }),
];

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  await fakes.close();
  process.exit(code);
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
