import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { inboundMessages, newsletterSenders, releasedUsernames } from '#server/db/schema';
import { insertUser } from '#server/modules/users/users.repository';
import { createTestDatabase } from '#server-test/test-database';
import { createInboundSmtpServer, type InboundSmtpDeps, type InboundSmtpServer } from './inbound-smtp';
import type { DNSResolver } from './mail-authentication';
import { TEST_MAIL_DOMAIN, testInboundSmtpDeps } from './test-support';

const DOMAIN = TEST_MAIL_DOMAIN;
const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const DKIM_TXT = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

/** The DNS of `letters.example`: SPF allows 127.0.0.1, DKIM selector `s1`, a DMARC policy; nothing else exists. */
const fakeDns: DNSResolver = async (name, rrtype) => {
  const records: Record<string, string[][]> = {
    'TXT letters.example': [['v=spf1 ip4:127.0.0.1 -all']],
    's1._domainkey.letters.example TXT': [[DKIM_TXT]],
    'TXT _dmarc.letters.example': [['v=DMARC1; p=reject']],
  };
  const found = records[`${rrtype} ${name}`] ?? records[`${name} ${rrtype}`];
  if (found) return found;
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
};

let database: DatabaseHandle;
const servers: InboundSmtpServer[] = [];

async function startServer(overrides: Partial<InboundSmtpDeps> = {}) {
  const server = createInboundSmtpServer(
    testInboundSmtpDeps(database.db, { resolver: fakeDns, ...overrides }),
  );
  servers.push(server);
  return server.listen(0, '127.0.0.1');
}

let port: number;
beforeAll(async () => {
  database = await createTestDatabase();
  port = await startServer();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await database?.close();
});

async function newUser(username = `r${randomUUID().slice(0, 8)}`) {
  const user = await insertUser(database.db, { email: `${randomUUID()}@example.com`, username });
  return { userId: user.userId, username };
}

type Mail = SendMailOptions;

/** Sends like a newsletter platform: a real SMTP client to the server's port. */
async function send(mail: Mail, to = port) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: to, ignoreTLS: true });
  try {
    return await transport.sendMail({
      from: 'Letters Weekly <news@letters.example>',
      subject: 'Letters Weekly #1',
      text: 'This week: three things worth reading.',
      ...mail,
    });
  } finally {
    transport.close();
  }
}

/** The SMTP reply code a refused send got. */
async function refusal(mail: Mail, to = port): Promise<number | undefined> {
  try {
    await send(mail, to);
  } catch (error) {
    return (error as { responseCode?: number }).responseCode;
  }
  throw new Error('the message was accepted');
}

const messagesOf = (userId: string) =>
  database.db.select().from(inboundMessages).where(eq(inboundMessages.userId, userId));

describe('receiving a newsletter', () => {
  it('stores a message to username@domain in any case, keeping the +tag, and answers 250 once stored', async () => {
    const { userId, username } = await newUser();
    const info = await send({
      to: `${username.toUpperCase()}+Weekly@DIGEST.Test`,
      messageId: '<issue-1@letters.example>',
      html: '<h1>Issue 1</h1><p>Three things.</p>',
      headers: {
        'List-Id': 'Letters Weekly <weekly.letters.example>',
        'List-Unsubscribe':
          '<https://letters.example/u/1>, <mailto:leave@letters.example?subject=unsubscribe>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    expect(info.response).toMatch(/^250 /);
    const [message] = await messagesOf(userId);
    expect(message).toMatchObject({
      internetMessageId: 'issue-1@letters.example',
      recipient: `${username}+weekly@digest.test`,
      recipientTag: 'Weekly',
      fromAddress: 'news@letters.example',
      subject: 'Letters Weekly #1',
      kind: 'newsletter',
      text: 'This week: three things worth reading.',
      html: '<h1>Issue 1</h1><p>Three things.</p>',
    });
    const [sender] = await database.db
      .select()
      .from(newsletterSenders)
      .where(eq(newsletterSenders.senderId, message?.senderId ?? ''));
    expect(sender).toMatchObject({
      listId: 'weekly.letters.example',
      name: 'Letters Weekly',
      unsubscribeUrl: 'https://letters.example/u/1',
      unsubscribeMailto: 'mailto:leave@letters.example?subject=unsubscribe',
      unsubscribeOneClick: true,
      messageCount: 1,
    });
  });

  it('offers STARTTLS with the operator’s certificate, and receives over it', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'digest-inbound-tls-'));
    const [keyFile, certFile] = [path.join(folder, 'key.pem'), path.join(folder, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=mx.${DOMAIN}`,
        '-addext',
        `subjectAltName=DNS:mx.${DOMAIN}`,
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(certFile);
    const tlsPort = await startServer({ tls: { cert, key: readFileSync(keyFile) } });
    const { userId, username } = await newUser();
    // requireTLS: the client gives up unless STARTTLS is offered and the certificate verifies.
    const secure = nodemailer.createTransport({
      host: '127.0.0.1',
      port: tlsPort,
      requireTLS: true,
      tls: { ca: cert, servername: `mx.${DOMAIN}` },
    });
    try {
      const info = await secure.sendMail({
        from: 'news@letters.example',
        to: `${username}@${DOMAIN}`,
        subject: 'Sent over TLS',
        text: 'Encrypted on the way.',
      });
      expect(info.response).toMatch(/^250 /);
    } finally {
      secure.close();
      rmSync(folder, { recursive: true, force: true });
    }
    expect(await messagesOf(userId)).toMatchObject([{ subject: 'Sent over TLS' }]);

    // Without a certificate STARTTLS is not offered at all, so such a client cannot send.
    const plainOnly = nodemailer.createTransport({ host: '127.0.0.1', port, requireTLS: true });
    const refused = await plainOnly
      .sendMail({ from: 'news@letters.example', to: `${username}@${DOMAIN}`, text: 'x' })
      .then(
        () => undefined,
        (error: Error) => error.message,
      );
    plainOnly.close();
    expect(refused).toMatch(/STARTTLS/);
  });

  it('records SPF, DKIM and DMARC as checked against the DNS (a signed message from an allowed address passes)', async () => {
    const { userId, username } = await newUser();
    await send({
      to: `${username}@${DOMAIN}`,
      dkim: {
        domainName: 'letters.example',
        keySelector: 's1',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
    const [message] = await messagesOf(userId);
    expect(message?.authentication).toEqual({
      spf: { result: 'pass', domain: 'letters.example' },
      dkim: { result: 'pass', domain: 'letters.example' },
      dmarc: { result: 'pass', domain: 'letters.example' },
    });
  });

  it('records an unsigned message from a domain without records as none', async () => {
    const { userId, username } = await newUser();
    await send({ to: `${username}@${DOMAIN}`, from: 'someone@nowhere.example' });
    const [message] = await messagesOf(userId);
    expect(message?.authentication).toMatchObject({
      dkim: { result: 'none' },
      dmarc: { result: 'none' },
    });
  });

  it('stores the same Message-ID twice as one message (a retry after a lost answer)', async () => {
    const { userId, username } = await newUser();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await send({ to: `${username}@${DOMAIN}`, messageId: '<twice@letters.example>' });
    }
    expect(await messagesOf(userId)).toHaveLength(1);
  });

  it('gives a message without a Message-ID one derived from its content, so its retry is stored once', async () => {
    const { userId, username } = await newUser();
    const raw = Buffer.from(
      `From: news@letters.example\r\nTo: ${username}@${DOMAIN}\r\nSubject: No id\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\r\nHello\r\n`,
    );
    const envelope = { from: 'news@letters.example', to: [`${username}@${DOMAIN}`] };
    await send({ envelope, raw });
    await send({ envelope, raw });
    const messages = await messagesOf(userId);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.internetMessageId).toMatch(/^[0-9a-f]{40}@derived\.invalid$/);
  });
});

describe('refusing at the door', () => {
  it('answers 550 for an unknown mailbox and for another domain (no relaying), and stores nothing', async () => {
    const { username } = await newUser();
    expect(await refusal({ to: `nobody-${randomUUID().slice(0, 6)}@${DOMAIN}` })).toBe(550);
    expect(await refusal({ to: `${username}@elsewhere.example` })).toBe(550);
    expect(await refusal({ to: `${username}@sub.${DOMAIN}` })).toBe(550);
  });

  it('delivers to a username given up recently to its previous owner, never to anyone else, and refuses it after the reservation', async () => {
    const previous = await newUser();
    const released = `gone${randomUUID().slice(0, 6)}`;
    await database.db
      .insert(releasedUsernames)
      .values({ usernameLower: released, userId: previous.userId, releasedAt: new Date() });
    await send({ to: `${released}@${DOMAIN}`, subject: 'Sent to the old name' });
    expect((await messagesOf(previous.userId)).map((message) => message.subject)).toEqual([
      'Sent to the old name',
    ]);

    const expired = `old${randomUUID().slice(0, 6)}`;
    await database.db.insert(releasedUsernames).values({
      usernameLower: expired,
      userId: previous.userId,
      releasedAt: new Date(Date.now() - 31 * 24 * 60 * 60_000),
    });
    expect(await refusal({ to: `${expired}@${DOMAIN}` })).toBe(550);
  });

  it('refuses a blocked sender with 550: by the envelope sender at RCPT, and by From or List-Id after DATA', async () => {
    const { userId, username } = await newUser();
    const to = `${username}@${DOMAIN}`;
    await send({ to, from: 'spam@blocked.example', headers: { 'List-Id': '<deals.blocked.example>' } });
    await database.db
      .update(newsletterSenders)
      .set({ state: 'blocked' })
      .where(eq(newsletterSenders.userId, userId));
    expect(await refusal({ to, from: 'spam@blocked.example' })).toBe(550);
    // Another envelope sender (a bounce address), the blocked From.
    expect(
      await refusal({ to, from: 'spam@blocked.example', envelope: { from: 'bounce@esp.example', to } }),
    ).toBe(550);
    // The blocked list from a new From address.
    expect(
      await refusal({
        to,
        from: 'fresh@blocked.example',
        headers: { 'List-Id': 'Deals <deals.blocked.example>' },
      }),
    ).toBe(550);
    expect(await messagesOf(userId)).toHaveLength(1);
    // Other senders still arrive.
    await send({ to, from: 'news@letters.example' });
    expect(await messagesOf(userId)).toHaveLength(2);
  });

  it('answers 452 (mailbox full, try later) once the stored messages reach the quota', async () => {
    const quotaPort = await startServer({ quotaBytes: 2_000 });
    const { userId, username } = await newUser();
    const to = `${username}@${DOMAIN}`;
    await send({ to, text: 'x'.repeat(3_000) }, quotaPort);
    expect(await refusal({ to, text: 'second' }, quotaPort)).toBe(452);
    expect(await messagesOf(userId)).toHaveLength(1);
  });

  it('announces SIZE, and answers 552 to a 100 MB message while memory stays flat', async () => {
    const { userId, username } = await newUser();
    const to = `${username}@${DOMAIN}`;
    const lines = 100 * 1024; // 1 KB lines: 100 MB
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent === 0) this.push(`From: news@letters.example\r\nTo: ${to}\r\nSubject: Huge\r\n\r\n`);
        if (sent >= lines) return this.push(null);
        sent += 1;
        this.push(`${'y'.repeat(1022)}\r\n`);
      },
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      expect(await refusal({ envelope: { from: 'news@letters.example', to }, raw: body })).toBe(552);
    } finally {
      clearInterval(sampler);
    }
    expect(sent).toBe(lines);
    // The server keeps at most INBOUND_MAX_MESSAGE_MB (1 MB here) of it; 100 MB held would show.
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
    expect(await messagesOf(userId)).toHaveLength(0);
  }, 120_000);

  it('refuses a declared size over the limit at MAIL FROM', async () => {
    const { username } = await newUser();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
    const code = await transport
      .sendMail({
        from: 'news@letters.example',
        to: `${username}@${DOMAIN}`,
        text: 'x'.repeat(2 * 1024 * 1024),
      })
      .then(
        () => undefined,
        (error: { responseCode?: number }) => error.responseCode,
      );
    transport.close();
    expect(code).toBe(552);
  });

  it('answers 421 to a client address past its connections a minute', async () => {
    const limitedPort = await startServer({ connectionsPerMinute: 2 });
    const { username } = await newUser();
    await send({ to: `${username}@${DOMAIN}` }, limitedPort);
    await send({ to: `${username}@${DOMAIN}` }, limitedPort);
    const error = await send({ to: `${username}@${DOMAIN}` }, limitedPort).then(
      () => undefined,
      (failure: { responseCode?: number; response?: string }) => failure,
    );
    expect(error?.response ?? '').toMatch(/^421 /);
  });
});

describe('under load', () => {
  it('stores all of 100 concurrent sessions', async () => {
    const { userId, username } = await newUser();
    const infos = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        send({ to: `${username}@${DOMAIN}`, subject: `Issue ${index}`, html: `<p>Issue ${index}</p>` }),
      ),
    );
    expect(infos.every((info) => info.response.startsWith('250 '))).toBe(true);
    expect(await messagesOf(userId)).toHaveLength(100);
  }, 120_000);
});

describe('stopping the inbound server', () => {
  it('waits for a session under way only as long as the stop has left, then says 421 and closes it', async () => {
    const server = createInboundSmtpServer(
      testInboundSmtpDeps(database.db, { resolver: fakeDns, closeTimeoutMs: 60_000 }),
    );
    const serverPort = await server.listen(0, '127.0.0.1');
    const socket = connect(serverPort, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    await expect.poll(() => received).toMatch(/^220 /);
    socket.write('EHLO sender.example\r\n');
    await expect.poll(() => received).toMatch(/250 /);

    const started = Date.now();
    await server.close(300);
    // Its own closeTimeoutMs (60 s) would have kept the stop waiting for the idle session.
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(() => received).toMatch(/421 /);
    socket.destroy();
  });
});
