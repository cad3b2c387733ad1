import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { killServers, runServer, type Started } from '#server-test/server-process';
import { createTestDatabase } from '#server-test/test-database';

const folders: string[] = [];

async function urlOf(started: Started): Promise<string> {
  let url: string | undefined;
  await expect
    .poll(
      () => {
        url = /Digest is running at (\S+)/.exec(started.output())?.[1];
        return url;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toBeDefined();
  return url ?? '';
}

async function tempDataDir() {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'digest-main-'));
  folders.push(folder);
  return folder;
}

afterEach(async () => {
  killServers();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

// Each test starts whole servers (migrations, job schema): seconds each, and over 30 s for a first start on a
// fresh embedded database while CI runs both databases' suites side by side on a 2-core machine.
describe('starting the server', { timeout: 240_000 }, () => {
  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'nonsense'],
  ])('stops at once with a message naming %s when it is %s', async (name, value) => {
    const started = runServer({ [name]: value, DATA_DIR: await tempDataDir() });
    expect(await started.exited).not.toBe(0);
    expect(started.output()).toContain(`${name}=`);
  });

  it('serves health on the embedded database, refuses a second process on the same DATA_DIR, stops cleanly on SIGTERM and keeps the data', async () => {
    const dataDir = await tempDataDir();
    const first = runServer({ DATA_DIR: dataDir });
    const url = await urlOf(first);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: { kind: 'embedded' } });

    const second = runServer({ DATA_DIR: dataDir });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/is in use by another Digest process/);

    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);
    expect(existsSync(path.join(dataDir, 'digest.lock'))).toBe(false);

    const pglite = await PGlite.create(path.join(dataDir, 'pglite'));
    await pglite.query("insert into users (email) values ('kept@example.com')");
    await pglite.close();

    const restarted = runServer({ DATA_DIR: dataDir });
    await urlOf(restarted);
    restarted.child.kill('SIGINT');
    expect(await restarted.exited, restarted.output()).toBe(0);

    const reopened = await PGlite.create(path.join(dataDir, 'pglite'));
    const { rows } = await reopened.query<{ email: string }>('select email from users');
    await reopened.close();
    expect(rows).toEqual([{ email: 'kept@example.com' }]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'runs the api and the worker as separate processes on PostgreSQL',
    async () => {
      const database = await createTestDatabase();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      try {
        const dataDir = await tempDataDir();
        const env = { DATABASE_URL: database.connectionString, DATA_DIR: dataDir };
        const worker = runServer({ ...env, ROLES: 'worker,scheduler' });
        const api = runServer({ ...env, ROLES: 'api' });
        const url = await urlOf(api);
        const health = await (await fetch(`${url}/api/health`)).json();
        expect(health).toMatchObject({ status: 'ok', database: { kind: 'postgres' }, roles: ['api'] });
        await expect.poll(() => worker.output(), { timeout: 60_000 }).toContain('Digest started');
        expect(worker.output()).not.toContain('Digest is running at');
        // Only the api keeps anything on the strength of changes: the worker opens no listening connection.
        const listeners = async () =>
          (
            await database.pool.query(
              `select count(*)::int as n from pg_stat_activity
               where application_name = 'digest-changes' and datname = current_database()`,
            )
          ).rows[0]?.n;
        await expect.poll(listeners, { timeout: 10_000 }).toBe(1);
        // Still one a moment later: a worker's listener, had it one, was not merely slower to connect.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(await listeners()).toBe(1);
        api.child.kill('SIGTERM');
        worker.child.kill('SIGTERM');
        expect(await api.exited, api.output()).toBe(0);
        expect(await worker.exited, worker.output()).toBe(0);
      } finally {
        await database.close();
      }
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'stops under load on PostgreSQL: requests under way finish (their clients gone or not) before the pool closes',
    async () => {
      const database = await createTestDatabase();
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      try {
        const started = runServer({
          DATABASE_URL: database.connectionString,
          DATA_DIR: await tempDataDir(),
          ROLES: 'api',
          LOG_LEVEL: 'warn',
        });
        const url = await urlOf(started);
        const authorization = await signedIn(url);
        // 100 clients asking in a loop; the signal comes while requests are queued, then every client hangs
        // up, so the server is left with handlers whose sockets are already closed.
        const clients = new AbortController();
        let answered = 0;
        const load = Array.from({ length: 100 }, async () => {
          while (!clients.signal.aborted) {
            const response = await fetch(`${url}/api/digests`, {
              headers: { authorization },
              signal: clients.signal,
            }).catch(() => undefined);
            await response?.arrayBuffer().catch(() => undefined);
            if (response?.status === 200) answered++;
          }
        });
        await expect.poll(() => answered, { timeout: 30_000, interval: 20 }).toBeGreaterThan(200);
        started.child.kill('SIGINT');
        clients.abort();
        await Promise.all(load);
        expect(await started.exited, started.output()).toBe(0);
        expect(started.output()).not.toMatch(/Cannot use a pool after calling end|request failed|"level":50/);
      } finally {
        await database.close();
      }
    },
  );
});

/** A user signed in with a password (a sign-up starts no session): their `Authorization` header. */
async function signedIn(url: string): Promise<string> {
  const credentials = { email: 'stop@example.com', password: 'stop passw0rd!' };
  const post = (path: string, body: object) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('/api/auth/signup/email', { ...credentials, confirmed: true })).status).toBe(202);
  const signin = await post('/api/auth/signin/email', credentials);
  expect(signin.status).toBe(200);
  const { token } = (await signin.json()) as { token: { accessToken: string } };
  return `Bearer ${token.accessToken}`;
}
