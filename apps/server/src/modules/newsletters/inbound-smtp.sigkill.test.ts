import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import nodemailer from 'nodemailer';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { embeddedDatabase } from '#server/db/client';
import { insertUser } from '#server/modules/users/users.repository';
import { killServers, runServer } from '#server-test/server-process';

const folders: string[] = [];
afterAll(async () => {
  killServers();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

// Only the embedded database lives inside the killed process; PostgreSQL commits are the server's own.
describe.skipIf(inject('testDatabase').kind !== 'embedded')(
  'a SIGKILL of the server',
  { timeout: 120_000 },
  () => {
    it('loses nothing that was answered 250, whatever the moment', async () => {
      const template = inject('testDatabase');
      if (template.kind !== 'embedded') return;
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-inbound-kill-'));
      folders.push(dataDir);
      // The data folder as a migrated server leaves it, with one user.
      const seed = embeddedDatabase(
        await PGlite.create({
          dataDir: path.join(dataDir, 'pglite'),
          loadDataDir: new Blob([await readFile(template.file)]),
        }),
      );
      await insertUser(seed.db, { email: 'reader@example.com', username: 'reader' });
      await seed.close();

      const port = await freePort();
      const server = runServer({
        DATA_DIR: dataDir,
        ROLES: 'inbound',
        INBOUND_SMTP_PORT: String(port),
        INBOUND_SMTP_HOST: '127.0.0.1',
        MAIL_DOMAIN: 'digest.test',
        INBOUND_CONNECTIONS_PER_MINUTE: '100000',
      });
      await expect
        .poll(() => server.output(), { timeout: 60_000, interval: 100 })
        .toContain(`by SMTP on port ${port}`);

      // Ten senders send one message after another; each notes the Message-IDs answered 250.
      const accepted: string[] = [];
      let killed = false;
      const sender = async () => {
        const transport = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
        while (!killed) {
          const messageId = `${randomUUID()}@letters.example`;
          try {
            const info = await transport.sendMail({
              from: 'news@letters.example',
              to: 'reader@digest.test',
              subject: 'Issue',
              html: `<p>${'Words worth reading. '.repeat(2_000)}</p>`,
              messageId: `<${messageId}>`,
            });
            if (info.response.startsWith('250')) accepted.push(messageId);
          } catch {
            // Refused or cut by the kill: the sender would retry; nothing was promised.
          }
        }
        transport.close();
      };
      const senders = Array.from({ length: 10 }, sender);
      await expect.poll(() => accepted.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(20);
      server.child.kill('SIGKILL');
      killed = true;
      expect(await server.exited).toBe('SIGKILL');
      await Promise.all(senders);

      const reopened = await PGlite.create(path.join(dataDir, 'pglite'));
      const { rows } = await reopened.query<{ id: string }>(
        'select internet_message_id as id from inbound_messages',
      );
      await reopened.close();
      const stored = new Set(rows.map((row) => row.id));
      expect(accepted.filter((id) => !stored.has(id))).toEqual([]);
    });
  },
);
