import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, embeddedDatabase, postgresDatabase } from '#server/db/client';
import { inboundMessages } from '#server/db/schema';
import { insertUser } from '#server/modules/users/users.repository';
import { createTestDatabase } from '#server-test/test-database';
import { createInboundSmtpServer, type InboundSmtpServer } from './inbound-smtp';
import { TEST_MAIL_DOMAIN, testInboundSmtpDeps } from './test-support';

const DOMAIN = TEST_MAIL_DOMAIN;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function startServer(database: DatabaseHandle): Promise<{ port: number; server: InboundSmtpServer }> {
  const server = createInboundSmtpServer(testInboundSmtpDeps(database.db));
  cleanups.push(() => server.close());
  return { port: await server.listen(0, '127.0.0.1'), server };
}

/** What the sender's MTA sees: the reply code of the final answer (250 when accepted). */
async function deliver(port: number, to: string, messageId: string): Promise<number> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
  try {
    const info = await transport.sendMail({
      from: 'news@letters.example',
      to,
      subject: 'Issue during an outage',
      text: 'Still here.',
      messageId,
    });
    return Number(info.response.slice(0, 3));
  } catch (error) {
    return (error as { responseCode?: number }).responseCode ?? 0;
  } finally {
    transport.close();
  }
}

/** A TCP proxy in front of PostgreSQL that can be stopped (every connection cut) and started again on its port. */
async function startProxy(target: { host: string; port: number }) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      const listening = createServer((client) => {
        const upstream = new Socket();
        sockets.add(client);
        sockets.add(upstream);
        upstream.connect(target.port, target.host);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server = listening;
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      server?.close(() => resolve());
    });
  await start();
  return { port: () => port, start, stop };
}

describe('a database outage', () => {
  it('answers 451 while the database is down, and stores the sender’s retry once it is back, once', async () => {
    const template = inject('testDatabase');
    let username = `r${randomUUID().slice(0, 8)}`;
    const messageId = `<outage-${randomUUID()}@letters.example>`;
    const stored = async (database: DatabaseHandle) =>
      database.db
        .select()
        .from(inboundMessages)
        .where(eq(inboundMessages.internetMessageId, messageId.slice(1, -1)));

    if (template.kind === 'postgres') {
      // PostgreSQL behind a proxy: cutting it is the server going away under the pool.
      const direct = await createTestDatabase();
      cleanups.push(() => direct.close());
      username =
        (await insertUser(direct.db, { email: `${randomUUID()}@example.com`, username })).username ?? '';
      const target = new URL(direct.kind === 'postgres' ? direct.connectionString : '');
      const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
      cleanups.push(() => proxy.stop());
      const viaProxy = new URL(target.href);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port());
      const database = postgresDatabase(viaProxy.href, 4);
      cleanups.push(() => database.close());
      const { port } = await startServer(database);
      const to = `${username}@${DOMAIN}`;

      await proxy.stop();
      expect(await deliver(port, to, messageId)).toBe(451);
      await proxy.start();
      expect(await deliver(port, to, messageId)).toBe(250);
      // Its answer lost, the sender tries again: still one message.
      expect(await deliver(port, to, messageId)).toBe(250);
      expect(await stored(direct)).toHaveLength(1);
      return;
    }

    // The embedded database on disk: closed under the running server, then opened again by a restarted one.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'digest-inbound-outage-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const dataDir = path.join(folder, 'pglite');
    const first = embeddedDatabase(
      await PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(template.file)]) }),
    );
    await insertUser(first.db, { email: `${randomUUID()}@example.com`, username });
    const down = await startServer(first);
    const to = `${username}@${DOMAIN}`;
    await first.close();
    expect(await deliver(down.port, to, messageId)).toBe(451);
    await down.server.close();

    const reopened = embeddedDatabase(await PGlite.create({ dataDir }));
    cleanups.push(() => reopened.close());
    const up = await startServer(reopened);
    expect(await deliver(up.port, to, messageId)).toBe(250);
    expect(await deliver(up.port, to, messageId)).toBe(250);
    expect(await stored(reopened)).toHaveLength(1);
  }, 60_000);
});
