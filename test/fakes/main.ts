// `npx tsx test/fakes/main.ts`: the fake providers on FAKE_PROVIDERS_PORT (default 4010), printing the
// environment that points the app at them, then one `FAKES_ENV_JSON=…` line for scripts (scripts/e2e.mjs).
import { startFakeProviders } from './fake-providers';

const fakes = await startFakeProviders({
  port: Number(process.env.FAKE_PROVIDERS_PORT ?? 4010),
  latencyMs: Number(process.env.FAKE_PROVIDERS_LATENCY_MS ?? 0),
});
console.log(`fake providers on ${fakes.origin}`);
for (const [name, value] of Object.entries(fakes.env)) console.log(`${name}=${value}`);
console.log(`FAKES_ENV_JSON=${JSON.stringify(fakes.env)}`);
const stop = () => fakes.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
