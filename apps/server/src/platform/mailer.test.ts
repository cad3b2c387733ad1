import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { dkimTxtRecord } from './dkim-record';
import {
  bounceTokenOf,
  createMailer,
  type Mailer,
  type MailerDkim,
  type MailerLogger,
  type OutgoingMail,
} from './mailer';

// ---------------------------------------------------------------------------------------------------------
// A real SMTP server on 127.0.0.1 (test/smtp-test-server.ts) and a logger that records what it is given.

const openMailers: Mailer[] = [];
const tempDirs: string[] = [];

afterEach(async () => {
  await Promise.all(openMailers.splice(0).map((mailer) => mailer.close()));
  await closeSmtpServers();
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

interface LogCall {
  level: 'info' | 'warn' | 'error';
  args: unknown[];
}

function recordingLogger(): MailerLogger & { calls: LogCall[] } {
  const calls: LogCall[] = [];
  return {
    calls,
    info: (...args: unknown[]) => void calls.push({ level: 'info', args }),
    warn: (...args: unknown[]) => void calls.push({ level: 'warn', args }),
    error: (...args: unknown[]) => void calls.push({ level: 'error', args }),
  };
}

function mailerFor(options: Parameters<typeof createMailer>[0]): Mailer {
  const mailer = createMailer(options);
  openMailers.push(mailer);
  return mailer;
}

/** A mailer to the test server (no outbox: a send that fell back to files would fail). */
function smtpMailerFor(server: TestSmtpServer, logger: MailerLogger = recordingLogger()): Mailer {
  return mailerFor({
    smtpUrl: `smtp://127.0.0.1:${server.port}`,
    outboxDir: '/nonexistent',
    from: FROM,
    logger,
  });
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'digest-mailer-'));
  tempDirs.push(dir);
  return dir;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((a) => a.address ?? ''));
}

/** The raw value of a header as written (names are case-insensitive: nodemailer writes `List-ID`). */
function headerValue(parsed: ParsedMail, name: string): string | undefined {
  const line = parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

const FROM = 'Digest <digest@digest.test>';

const mail: OutgoingMail = {
  to: ['ann@example.com', 'bob@example.org'],
  subject: 'Your Monday digest — 3 stories',
  html: '<!DOCTYPE html><html><body><h1>Monday</h1><p>Body paragraph with <a href="https://digest.test/b/1">a link</a>.</p></body></html>',
  text: 'Monday\n\nBody paragraph with a link https://digest.test/b/1.',
  headers: {
    'List-Id': 'Monday digest <digest-42.digest.test>',
    'List-Unsubscribe': '<https://digest.test/unsubscribe/abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  messageId: '<build-7.ann@digest.test>',
};

/** What every transport must deliver, checked on the parsed message. */
function expectDelivered(parsed: ParsedMail) {
  expect(parsed.subject).toBe('Your Monday digest — 3 stories');
  expect(parsed.from?.value).toEqual([{ name: 'Digest', address: 'digest@digest.test' }]);
  expect(addresses(parsed.to)).toEqual(['ann@example.com', 'bob@example.org']);
  expect(parsed.html).toContain('<p>Body paragraph with <a href="https://digest.test/b/1">a link</a>.</p>');
  expect(parsed.text?.trim()).toBe('Monday\n\nBody paragraph with a link https://digest.test/b/1.');
  expect(parsed.messageId).toBe('<build-7.ann@digest.test>');
  expect(headerValue(parsed, 'List-Id')).toBe('Monday digest <digest-42.digest.test>');
  expect(headerValue(parsed, 'List-Unsubscribe')).toBe('<https://digest.test/unsubscribe/abc>');
  expect(headerValue(parsed, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  expect(parsed.date).toBeInstanceOf(Date);
}

function rejection(promise: Promise<unknown>): Promise<Error & { responseCode?: number; code?: string }> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: Error) => error,
  );
}

// ---------------------------------------------------------------------------------------------------------

describe('createMailer with SMTP_URL (pooled SMTP)', () => {
  it('delivers subject, From, To, html, text, custom headers and the Message-ID', async () => {
    const server = await startSmtpServer();
    const logger = recordingLogger();
    const mailer = smtpMailerFor(server, logger);

    expect(mailer.transport).toBe('smtp');
    const result = await mailer.send(mail);

    expect(result.messageId).toBe('<build-7.ann@digest.test>');
    expect(server.received).toHaveLength(1);
    const received = server.received[0];
    if (!received) throw new Error('no message');
    expectDelivered(received.parsed);
    expect(received.parsed.html).not.toBe(false);
    expect(received.parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(logger.calls).toEqual([]);
  });

  it('never forges the envelope sender: MAIL FROM is the address of `from`, RCPT TO the recipients', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);

    await mailer.send({ ...mail, headers: { 'Reply-To': 'Carol <carol@elsewhere.example>' } });

    const received = server.received[0];
    expect(received?.mailFrom).toBe('digest@digest.test');
    expect(received?.rcptTo).toEqual(['ann@example.com', 'bob@example.org']);
    expect(addresses(received?.parsed.replyTo)).toEqual(['carol@elsewhere.example']);
    expect(received?.parsed.from?.value).toEqual([{ name: 'Digest', address: 'digest@digest.test' }]);
    expect(received?.parsed.headers.has('sender')).toBe(false);
  });

  it('refuses headers that would change the sender, recipients or MIME structure', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);

    for (const name of ['From', 'sender', 'Return-Path', 'BCC', 'Content-Type']) {
      const error = await rejection(
        mailer.send({ ...mail, headers: { [name]: 'Mallory <mallory@evil.example>' } }),
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain(name);
    }
    expect(server.received).toHaveLength(0);
  });

  it('refuses a header value with a line break (it would add a header of its own)', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);
    const error = await rejection(
      mailer.send({ ...mail, headers: { 'List-Id': 'x\r\nBcc: mallory@evil.example' } }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(server.received).toHaveLength(0);
  });

  it('sends long List-* headers as written, never MIME-encoded (clients parse their <…>)', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);
    const listId = `"A rather long digest name for a list" <${'d'.repeat(36)}.digests.app.example.com>`;
    const unsubscribe = `<https://app.example.com/api/subscriptions/${'t'.repeat(43)}/unsubscribe>`;
    await mailer.send({ ...mail, headers: { 'List-Id': listId, 'List-Unsubscribe': unsubscribe } });
    const [received] = server.received;
    if (!received) throw new Error('not received');
    const unfold = (value?: string) => value?.replace(/\r?\n\s+/g, ' ');
    expect(unfold(headerValue(received.parsed, 'List-Id'))).toBe(listId);
    expect(unfold(headerValue(received.parsed, 'List-Unsubscribe'))).toBe(unsubscribe);
  });

  it('generates a Message-ID when none is given and returns the one sent', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);

    const { messageId } = await mailer.send({ ...mail, messageId: undefined, to: 'ann@example.com' });

    expect(messageId).toMatch(/^<[^<>@\s]+@[^<>@\s]+>$/);
    expect(server.received[0]?.parsed.messageId).toBe(messageId);
    expect(server.received[0]?.rcptTo).toEqual(['ann@example.com']);
  });

  it('authenticates with the user and password from the URL (percent-decoded)', async () => {
    const pass = 'p@ss:w/rd%';
    const server = await startSmtpServer({ auth: { user: 'mailer@digest.test', pass } });
    const logger = recordingLogger();
    const smtpUrl = `smtp://${encodeURIComponent('mailer@digest.test')}:${encodeURIComponent(pass)}@127.0.0.1:${server.port}`;
    const mailer = mailerFor({ smtpUrl, outboxDir: '/nonexistent', from: FROM, logger });

    await mailer.send(mail);

    expect(server.authAttempts).toEqual([{ user: 'mailer@digest.test', pass, method: expect.any(String) }]);
    expect(['PLAIN', 'LOGIN']).toContain(server.authAttempts[0]?.method);
    expect(server.received[0]?.user).toBe('mailer@digest.test');
    expect(JSON.stringify(logger.calls)).not.toContain('p@ss');
  });

  it('a wrong password rejects the send with EAUTH / 535 and is never logged', async () => {
    const server = await startSmtpServer({ auth: { user: 'mailer', pass: 'right-password' } });
    const logger = recordingLogger();
    const mailer = mailerFor({
      smtpUrl: `smtp://mailer:wrong-password@127.0.0.1:${server.port}`,
      outboxDir: '/nonexistent',
      from: FROM,
      logger,
    });

    const error = await rejection(mailer.send(mail));

    expect(error.code).toBe('EAUTH');
    expect(error.responseCode).toBe(535);
    expect(server.received).toHaveLength(0);
    expect(server.authAttempts.map((a) => a.pass)).toContain('wrong-password');
    const logged = JSON.stringify(logger.calls);
    expect(logger.calls.map((c) => c.level)).toEqual(['warn']);
    expect(logged).toContain('535');
    expect(logged).not.toContain('wrong-password');
    expect(logged).not.toContain('Body paragraph');
  });

  it.each([
    { stage: 'RCPT TO', code: 451, expectedCode: 'EENVELOPE' },
    { stage: 'RCPT TO', code: 550, expectedCode: 'EENVELOPE' },
    { stage: 'DATA', code: 451, expectedCode: 'EMESSAGE' },
    { stage: 'DATA', code: 550, expectedCode: 'EMESSAGE' },
  ])('a $code at $stage rejects the send with responseCode $code', async ({ stage, code, expectedCode }) => {
    const server = await startSmtpServer(
      stage === 'DATA' ? { rejectData: () => code } : { rejectRcpt: () => code },
    );
    const logger = recordingLogger();
    const mailer = smtpMailerFor(server, logger);

    const error = await rejection(mailer.send({ ...mail, to: 'ann@example.com' }));

    expect(error.responseCode).toBe(code);
    expect(error.code).toBe(expectedCode);
    expect(server.received).toHaveLength(0);
    expect(logger.calls).toHaveLength(1);
    expect(logger.calls[0]?.level).toBe('warn');
    expect(logger.calls[0]?.args[0]).toMatchObject({ responseCode: code, to: 'ann@example.com' });
  });

  it('a rejected message does not break the pool: the next one is delivered', async () => {
    let refuse = true;
    const server = await startSmtpServer({ rejectRcpt: () => (refuse ? 451 : undefined) });
    const mailer = smtpMailerFor(server);

    expect((await rejection(mailer.send(mail))).responseCode).toBe(451);
    refuse = false;
    await mailer.send(mail);

    expect(server.received).toHaveLength(1);
  });

  it('reuses pooled connections: 6 mails in a row use one connection, 12 at once at most 5', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);

    for (let i = 0; i < 6; i += 1) {
      await mailer.send({ ...mail, messageId: undefined, subject: `sequential ${i}` });
    }
    expect(server.received).toHaveLength(6);
    expect(server.connections).toBe(1);

    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        mailer.send({ ...mail, messageId: undefined, subject: `burst ${i}` }),
      ),
    );
    expect(server.received).toHaveLength(18);
    expect(server.connections).toBeGreaterThan(1);
    expect(server.connections).toBeLessThanOrEqual(5);
  });

  it('holds the final dot until beforeFinalDot resolves, which runs once the server is receiving the message', async () => {
    let receiving!: () => void;
    const serverReceiving = new Promise<void>((resolve) => {
      receiving = resolve;
    });
    let recipientsAnswered = 0;
    const server = await startSmtpServer({
      receiving: () => receiving(),
      rejectRcpt: () => {
        recipientsAnswered += 1;
        return undefined;
      },
    });
    const mailer = smtpMailerFor(server);
    const seen: string[] = [];

    await mailer.send(mail, {
      beforeFinalDot: async () => {
        // The server answered the envelope (and DATA) before: the mark is not taken while queued or waiting.
        seen.push(`recipients answered: ${recipientsAnswered}`);
        await serverReceiving;
        seen.push(`received before the final dot: ${server.received.length}`);
      },
    });

    expect(seen).toEqual(['recipients answered: 2', 'received before the final dot: 0']);
    expect(server.received).toHaveLength(1);
    expectDelivered(server.received[0]?.parsed as ParsedMail);
  });

  it('a beforeFinalDot that refuses closes the connection without the final dot: the server keeps nothing, the next mail goes out', async () => {
    const server = await startSmtpServer();
    const logger = recordingLogger();
    const mailer = smtpMailerFor(server, logger);
    const refusal = new Error('the claim was lost');

    const error = await rejection(mailer.send(mail, { beforeFinalDot: () => Promise.reject(refusal) }));

    expect(error).toBe(refusal);
    expect(logger.calls[0]?.args[0]).toMatchObject({ reason: 'the claim was lost' });
    await mailer.send({ ...mail, subject: 'next' });
    expect(server.received.map((received) => received.parsed.subject)).toEqual(['next']);
  });

  it('close() closes the pool and later sends reject', async () => {
    const server = await startSmtpServer();
    const mailer = smtpMailerFor(server);
    await mailer.send(mail);

    await mailer.close();

    await expect(mailer.send(mail)).rejects.toThrow(/closed/);
    expect(server.received).toHaveLength(1);
  });

  it('refuses a URL that is not smtp:// or smtps:// without repeating its password', () => {
    const logger = recordingLogger();
    for (const smtpUrl of ['http://user:s3cret@mail.example:25', 'not a url s3cret']) {
      expect(() => createMailer({ smtpUrl, outboxDir: '/nonexistent', from: FROM, logger })).toThrow(
        /SMTP URL/,
      );
      try {
        createMailer({ smtpUrl, outboxDir: '/nonexistent', from: FROM, logger });
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret');
      }
    }
  });
});

describe('createMailer without SMTP_URL (outbox)', () => {
  it('writes a parseable .eml with everything into a new outbox folder and logs one line without the body', async () => {
    const outboxDir = path.join(await tempDir(), 'outbox');
    const logger = recordingLogger();
    const mailer = mailerFor({ outboxDir, from: FROM, logger });

    expect(mailer.transport).toBe('outbox');
    const result = await mailer.send(mail);

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    const [name] = files;
    expect(name).toMatch(/^\d{8}T\d{9}Z-\d{4}-[0-9a-f]{12}\.eml$/);
    const file = path.join(outboxDir, name ?? '');
    const raw = await readFile(file);
    expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/); // RFC 5322: CRLF line endings only
    const parsed = await simpleParser(raw);
    expectDelivered(parsed);
    expect(result.messageId).toBe('<build-7.ann@digest.test>');

    expect(logger.calls).toHaveLength(1);
    const [call] = logger.calls;
    expect(call?.level).toBe('info');
    expect(call?.args[0]).toEqual({
      to: ['ann@example.com', 'bob@example.org'],
      subject: 'Your Monday digest — 3 stories',
      file,
    });
    const logged = JSON.stringify(logger.calls);
    expect(logged).not.toContain('Body paragraph');
    expect(logged).not.toContain('<h1>');
  });

  it('names files so they sort in sending order and never collide, and leaves no temp files', async () => {
    const outboxDir = await tempDir();
    const mailer = mailerFor({ outboxDir, from: FROM, logger: recordingLogger() });

    for (let i = 0; i < 25; i += 1) {
      await mailer.send({ ...mail, messageId: undefined, subject: `mail ${String(i).padStart(2, '0')}` });
    }
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        mailer.send({ ...mail, messageId: undefined, subject: `burst ${i}` }),
      ),
    );

    const files = (await readdir(outboxDir)).sort();
    expect(files).toHaveLength(50);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const subjects: string[] = [];
    for (const f of files.slice(0, 25)) {
      subjects.push((await simpleParser(await readFile(path.join(outboxDir, f)))).subject ?? '');
    }
    expect(subjects).toEqual(Array.from({ length: 25 }, (_, i) => `mail ${String(i).padStart(2, '0')}`));
  });

  it('generates a Message-ID when none is given and writes it into the file', async () => {
    const outboxDir = await tempDir();
    const logger = recordingLogger();
    const mailer = mailerFor({ outboxDir, from: FROM, logger });

    const { messageId } = await mailer.send({ ...mail, messageId: undefined });

    const logged = logger.calls[0]?.args[0] as { file: string } | undefined;
    if (!logged) throw new Error('nothing was logged');
    const parsed = await simpleParser(await readFile(logged.file));
    expect(messageId).toMatch(/^<[^<>@\s]+@[^<>@\s]+>$/);
    expect(parsed.messageId).toBe(messageId);
  });

  it('names the file only after beforeFinalDot resolves, and removes it unseen when it refuses', async () => {
    const outboxDir = await tempDir();
    const mailer = mailerFor({ outboxDir, from: FROM, logger: recordingLogger() });
    const visible: string[][] = [];

    await mailer.send(mail, {
      beforeFinalDot: async () =>
        void visible.push((await readdir(outboxDir)).filter((n) => !n.startsWith('.'))),
    });
    await expect(
      mailer.send(mail, { beforeFinalDot: () => Promise.reject(new Error('refused')) }),
    ).rejects.toThrow('refused');

    expect(visible).toEqual([[]]);
    expect(await readdir(outboxDir)).toHaveLength(1);
  });

  it('refuses a From header and writes nothing', async () => {
    const outboxDir = await tempDir();
    const logger = recordingLogger();
    const mailer = mailerFor({ outboxDir, from: FROM, logger });

    await expect(mailer.send({ ...mail, headers: { from: 'mallory@evil.example' } })).rejects.toThrow(
      TypeError,
    );

    expect(await readdir(outboxDir)).toEqual([]);
    expect(logger.calls).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// DKIM: checked by an independent verifier (mailauth) against the TXT record a DNS resolver given to it
// answers, the way a receiving server checks it (no network).

function rsaKey(bits = 2048) {
  return generateKeyPairSync('rsa', { modulusLength: bits }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
}

const DKIM: MailerDkim = {
  domainName: 'digest.test',
  keySelector: 'digest2026',
  privateKey: rsaKey().toString(),
};

/** The DKIM results of a raw message, its key published by `publishedKey`'s TXT record. */
async function dkimResultsOf(raw: string | Buffer, publishedKey: string) {
  const record = dkimTxtRecord(publishedKey);
  const { results } = await dkimVerify(raw, {
    resolver: async (name: string, type: string) => {
      if (name === 'digest2026._domainkey.digest.test' && type === 'TXT') return [[record]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    },
  });
  return results;
}

describe('DKIM signing (DKIM_SELECTOR, DKIM_PRIVATE_KEY)', () => {
  it('signs a held message like any other: DKIM is computed before the final dot is held', async () => {
    const server = await startSmtpServer();
    const mailer = mailerFor({
      smtpUrl: `smtp://127.0.0.1:${server.port}`,
      outboxDir: '/nonexistent',
      from: FROM,
      dkim: DKIM,
      logger: recordingLogger(),
    });

    await mailer.send(mail, { beforeFinalDot: () => Promise.resolve() });

    const results = await dkimResultsOf(server.received[0]?.raw ?? '', DKIM.privateKey);
    expect(results[0]).toMatchObject({ status: { result: 'pass' } });
  });

  it('mail received over SMTP carries a DKIM signature of the domain that verifies against the published key', async () => {
    const server = await startSmtpServer();
    const mailer = mailerFor({
      smtpUrl: `smtp://127.0.0.1:${server.port}`,
      outboxDir: '/nonexistent',
      from: FROM,
      dkim: DKIM,
      logger: recordingLogger(),
    });

    await mailer.send(mail);

    const received = server.received[0];
    if (!received) throw new Error('no message');
    expectDelivered(received.parsed);
    const results = await dkimResultsOf(received.raw, DKIM.privateKey);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      signingDomain: 'digest.test',
      selector: 'digest2026',
      algo: 'rsa-sha256',
      status: { result: 'pass', aligned: 'digest.test' },
    });
    // From, Subject, Message-ID and the List-* headers are covered: none can be changed on the way.
    const signed = headerValue(received.parsed, 'DKIM-Signature')?.replace(/\s+/g, '') ?? '';
    for (const name of ['From', 'Subject', 'Message-ID', 'List-Unsubscribe', 'To', 'Date']) {
      expect(signed.toLowerCase()).toMatch(new RegExp(`h=[^;]*\\b${name.toLowerCase()}\\b`));
    }
  });

  it('a signature does not verify against another key, nor once the body was changed', async () => {
    const server = await startSmtpServer();
    const mailer = mailerFor({
      smtpUrl: `smtp://127.0.0.1:${server.port}`,
      outboxDir: '/nonexistent',
      from: FROM,
      dkim: DKIM,
      logger: recordingLogger(),
    });
    await mailer.send(mail);
    const raw = server.received[0]?.raw ?? '';

    const otherKey = await dkimResultsOf(raw, rsaKey().toString());
    expect(otherKey[0]?.status.result).toBe('fail');
    const tampered = await dkimResultsOf(raw.replace('Body paragraph', 'Changed paragraph'), DKIM.privateKey);
    expect(tampered[0]?.status.result).toBe('neutral');
    expect(tampered[0]?.status.comment).toMatch(/body hash/i);
  });

  it('outbox files carry the same verifying signature, so a developer sees what receivers check', async () => {
    const outboxDir = path.join(await tempDir(), 'outbox');
    const logger = recordingLogger();
    const mailer = mailerFor({ outboxDir, from: FROM, dkim: DKIM, logger });

    await mailer.send(mail);

    const [name] = await readdir(outboxDir);
    const raw = await readFile(path.join(outboxDir, name ?? ''));
    expect((await dkimResultsOf(raw, DKIM.privateKey))[0]?.status.result).toBe('pass');
    // The key is never logged.
    expect(JSON.stringify(logger.calls)).not.toContain('PRIVATE KEY');
  });

  it('without a key nothing is signed', async () => {
    const server = await startSmtpServer();
    await smtpMailerFor(server).send(mail);
    expect(server.received[0]?.parsed.headers.has('dkim-signature')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('VERP: a bounce token in the envelope sender', () => {
  const token = '0123456789abcdef0123456789abcdef';

  it('sends MAIL FROM <local>+b-<token>@<domain> of MAIL_FROM, with the header From unchanged', async () => {
    const server = await startSmtpServer();
    await smtpMailerFor(server).send({ ...mail, bounceToken: token });

    const received = server.received[0];
    expect(received?.mailFrom).toBe(`digest+b-${token}@digest.test`);
    expect(received?.rcptTo).toEqual(['ann@example.com', 'bob@example.org']);
    expect(received?.parsed.from?.value).toEqual([{ name: 'Digest', address: 'digest@digest.test' }]);
    expect(received?.parsed.headers.has('sender')).toBe(false);
  });

  it('bounceTokenOf reads the token back from the address a bounce is sent to, in any case, and nothing else', () => {
    expect(bounceTokenOf(`digest+b-${token}@digest.test`)).toBe(token);
    expect(bounceTokenOf(`DIGEST+B-${token.toUpperCase()}@DIGEST.TEST`)).toBe(token);
    for (const address of [
      'digest@digest.test',
      'digest+b-short@digest.test',
      `digest+b-${token}+x@digest.test`,
      token,
    ]) {
      expect(bounceTokenOf(address)).toBeUndefined();
    }
  });

  it('outbox files start with the Return-Path a receiving server would record', async () => {
    const outboxDir = path.join(await tempDir(), 'outbox');
    const mailer = mailerFor({ outboxDir, from: FROM, logger: recordingLogger() });
    await mailer.send({ ...mail, bounceToken: token });
    await mailer.send(mail);

    const names = (await readdir(outboxDir)).sort();
    const heads = await Promise.all(
      names.map(async (name) => (await readFile(path.join(outboxDir, name), 'utf8')).split('\r\n')[0]),
    );
    expect(heads).toEqual([
      `Return-Path: <digest+b-${token}@digest.test>`,
      'Return-Path: <digest@digest.test>',
    ]);
  });

  it.each([
    ['upper case', token.toUpperCase()],
    ['an address', 'x@evil.example'],
    ['a second tag', `${token}+x`],
    ['too short', 'abc'],
    ['empty', ''],
  ])('refuses a token that is %s, and sends nothing', async (_case, bad) => {
    const server = await startSmtpServer();
    const error = await rejection(smtpMailerFor(server).send({ ...mail, bounceToken: bad }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('bounce token');
    expect(server.received).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("a user's own address as sender (fromMailbox)", () => {
  it('sends From and MAIL FROM the user’s address at MAIL_DOMAIN, signed like any other mail', async () => {
    const server = await startSmtpServer();
    const mailer = mailerFor({
      smtpUrl: `smtp://127.0.0.1:${server.port}`,
      outboxDir: '/nonexistent',
      from: FROM,
      mailDomain: 'Digest.Test',
      logger: recordingLogger(),
    });
    await mailer.send({ ...mail, fromMailbox: 'ada@digest.test' });
    const received = server.received[0];
    expect(received?.mailFrom).toBe('ada@digest.test');
    expect(received?.parsed.from?.value).toEqual([{ name: '', address: 'ada@digest.test' }]);
  });

  it('refuses any other domain, a display name or a line break, and a mailer without MAIL_DOMAIN; nothing is sent', async () => {
    const server = await startSmtpServer();
    const options = { smtpUrl: `smtp://127.0.0.1:${server.port}`, outboxDir: '/nonexistent', from: FROM };
    const mailer = mailerFor({ ...options, mailDomain: 'digest.test', logger: recordingLogger() });
    for (const fromMailbox of [
      'ada@gmail.com',
      'ada@digest.test.evil.example',
      'Bank <ada@digest.test>',
      'ada\r\nBcc: x@evil.example@digest.test',
      '@digest.test',
    ]) {
      await expect(mailer.send({ ...mail, fromMailbox }), fromMailbox).rejects.toThrow(/MAIL_DOMAIN/);
    }
    const withoutDomain = mailerFor({ ...options, logger: recordingLogger() });
    await expect(withoutDomain.send({ ...mail, fromMailbox: 'ada@digest.test' })).rejects.toThrow(
      /MAIL_DOMAIN/,
    );
    expect(server.received).toEqual([]);
  });
});

describe('waiting for a connection', () => {
  it('fifty deliveries waiting for a connection add no abort listeners: no MaxListenersExceeded warning', async () => {
    const outboxDir = await mkdtemp(path.join(os.tmpdir(), 'digest-outbox-'));
    tempDirs.push(outboxDir);
    const mailer = mailerFor({ outboxDir, from: FROM, logger: recordingLogger() });
    const warn = vi.spyOn(process, 'emitWarning');
    try {
      const held = await Promise.all(Array.from({ length: 5 }, () => mailer.waitForConnection()));
      const waiting = Array.from({ length: 50 }, () => mailer.waitForConnection());
      for (const release of held) release();
      for (const next of waiting) (await next)();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
