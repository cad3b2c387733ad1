/**
 * Measured deliverability (issue 13): every kind of mail the product sends, made by the real program and
 * scored by SpamAssassin. The program runs in this process exactly as `npm start` composes it
 * (`loadConfig` → `startDigest`: embedded database in a temporary DATA_DIR, all three roles, DKIM signing
 * on), pointed at the fake providers and at an SMTP server here that keeps each raw message. The script
 * then acts as a user through the HTTP API — signs up, shares a digest with a friend, lets the scheduler
 * send an issue, asks for a password reset — and scores each message with Debian's `spamassassin` in
 * local mode (`-L`: no network tests, so no DNS blocklists or DKIM key lookup). Exits 1 when a kind of
 * mail scores above MAX_SCORE, or when one did not arrive.
 *
 *   npm run bench:spam                    the table of scores (bench/README.md has the last figures)
 *   KEEP_MAIL=/some/dir npm run bench:spam   also writes each raw message there as <kind>.eml
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '#server/app/config';
import { startDigest } from '#server/app/start';
import { digests } from '#server/db/schema';
import { startFakeProviders } from '#test/fakes/fake-providers';
import { machine, ROOT } from './burst-kit';

const MAX_SCORE = 1.0;
const OWNER = { email: 'ada.lovelace@example.org', fullName: 'Ada Lovelace', password: 'correct horse 1!' };
const FRIEND = 'charles.babbage@example.net';

interface Captured {
  raw: Buffer;
  mailFrom: string;
  to: string[];
  subject: string;
}

/**
 * Each kind of mail the product sends, and how to recognise it among the captured ones. A kind whose
 * `match` is null is not sent yet by this version of the program: its row says so instead of a score.
 */
const VERIFICATION_SUBJECT = 'Confirm your e-mail address for Digest';
const ISSUE_SUBJECT = /^Digest “Morning Notes”, issue \d+$/;
const MAIL_KINDS: { kind: string; match: (mail: Captured) => boolean }[] = [
  {
    kind: 'issue (owner)',
    match: (mail) => mail.to.includes(OWNER.email) && ISSUE_SUBJECT.test(mail.subject),
  },
  {
    kind: 'issue (subscriber)',
    match: (mail) => mail.to.includes(FRIEND) && ISSUE_SUBJECT.test(mail.subject),
  },
  {
    kind: 'invitation',
    match: (mail) => mail.to.includes(FRIEND) && /^Digest invitation: /.test(mail.subject),
  },
  { kind: 'verification', match: (mail) => mail.subject === VERIFICATION_SUBJECT },
  {
    kind: 'sign-up attempt',
    match: (mail) => mail.subject === 'Someone tried to sign up to Digest with your address',
  },
  { kind: 'password reset', match: (mail) => mail.subject === 'Reset your Digest password' },
];

function captureServer() {
  const captured: Captured[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const head = raw
          .subarray(0, raw.indexOf('\r\n\r\n'))
          .toString('utf8')
          .replace(/\r\n[ \t]+/g, ' ');
        const subject = /^subject: (.*)$/im.exec(head)?.[1] ?? '';
        captured.push({
          raw,
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: decodeSubject(subject),
        });
        callback();
      });
    },
  });
  return { server, captured };
}

/** Enough of RFC 2047 for our own subjects (nodemailer writes non-ASCII ones as =?UTF-8?Q?…?= or B). */
function decodeSubject(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_all, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/**
 * The message as a receiving server filters it: with the envelope sender as Return-Path. No Received line
 * is made up: one naming an address of ours would be scored for that address (a documentation range hits
 * RCVD_ILLEGAL_IP), not for the mail.
 */
function asReceived(mail: Captured): Buffer {
  return Buffer.concat([Buffer.from(`Return-Path: <${mail.mailFrom}>\r\n`), mail.raw]);
}

interface Score {
  score: number;
  rules: string[];
}

function spamScore(message: Buffer): Score {
  const run = spawnSync('spamassassin', ['-L', '-t'], { input: message, maxBuffer: 32 * 1024 * 1024 });
  if (run.error || run.status !== 0) {
    throw new Error(`spamassassin failed (is Debian's spamassassin installed?): ${run.error ?? run.stderr}`);
  }
  const out = run.stdout.toString('utf8');
  const status = /^X-Spam-Status: .*?score=(-?[\d.]+)[\s\S]*?tests=([\s\S]*?)(?:autolearn|version)=/m.exec(
    out,
  );
  if (!status) throw new Error('no X-Spam-Status header in spamassassin output');
  // The report's table gives each rule's points: " 0.1 DKIM_SIGNED  Message has a DKIM …".
  const points = new Map<string, string>();
  for (const [, value, rule] of out.matchAll(/^\s*(-?\d+\.\d+)\s+([A-Z0-9_]+)\s/gm))
    points.set(rule ?? '', value ?? '');
  const rules = (status[2] ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((rule) => `${rule} ${points.get(rule) ?? ''}`.trim());
  return { score: Number(status[1]), rules };
}

async function api(base: string, method: string, url: string, body?: object, token?: string) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

async function waitFor(what: string, done: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) {
      const got = captured.map((mail) => `${mail.to.join(',')}: ${mail.subject}`).join('; ');
      throw new Error(`timed out waiting for ${what}; received: ${got || 'nothing'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first link matching `link` in the text of the mail whose subject is (or matches) `subject`. */
async function linkIn(subject: string | RegExp, link: RegExp) {
  const matches = (mail: Captured) =>
    typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject);
  await waitFor(`the mail "${subject}"`, () => captured.some(matches));
  const mail = captured.find(matches) as Captured;
  const found = link.exec((await simpleParser(mail.raw)).text ?? '');
  if (!found) throw new Error(`no link in "${mail.subject}"`);
  return `https://digest.example.com${found[0]}`;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-spam-'));
const fakes = await startFakeProviders();
const { server: smtp, captured } = captureServer();
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as { port: number }).port;
const dkimKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
});

const config = loadConfig({
  ...fakes.env,
  PORT: '0',
  DATA_DIR: dataDir,
  APP_URL: 'https://digest.example.com',
  MAIL_FROM: 'Digest <digest@digest.example.com>',
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  DKIM_SELECTOR: 'digest2026',
  DKIM_PRIVATE_KEY: dkimKey.toString(),
  FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
});
const running = await startDigest(config, pino({ level: process.env.LOG_LEVEL ?? 'silent' }), {
  webDistDir: path.join(dataDir, 'no-web-build'),
  changelogFile: path.join(ROOT, 'CHANGELOG.md'),
});
let failed = false;
try {
  const base = running.url ?? '';
  const owner = { email: OWNER.email, password: OWNER.password, confirmed: true };
  await api(base, 'POST', '/api/auth/signup/email', owner);
  // Following the mailed link verifies the address and signs in; signing up again mails the owner a note.
  const verified = await api(base, 'POST', '/api/auth/email/verify', {
    token: new URL(await linkIn(VERIFICATION_SUBJECT, /\/verify-email\?token=[\w-]+/)).searchParams.get(
      'token',
    ),
  });
  const token = verified.token.accessToken as string;
  await api(base, 'POST', '/api/auth/signup/email', owner);
  await api(base, 'PATCH', '/api/users/me', { fullName: OWNER.fullName }, token);
  const { digest } = await api(
    base,
    'POST',
    '/api/digests',
    {
      name: 'Morning Notes',
      sources: [
        { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml`, sourceName: 'Field Notes' },
        { type: 'HACKER_NEWS' },
        { type: 'DATE' },
      ],
      subscribers: [FRIEND],
    },
    token,
  );
  // The friend accepts the invitation; then the scheduler finds the digest due and mails them both.
  const invitation = new URL(await linkIn(/^Digest invitation: /, /\/invitations\/[\w-]+/));
  const invitationToken = invitation.pathname.split('/').pop() ?? '';
  await api(base, 'POST', `/api/subscriptions/${invitationToken}/accept`);
  // The scheduler finds the digest due and sends the issue to the owner and the friend.
  await running.database.db
    .update(digests)
    .set({ nextRunAt: sql`now() - interval '30 seconds'` })
    .where(eq(digests.digestId, digest.digestId));
  await api(base, 'POST', '/api/auth/password/forgot', { email: OWNER.email });

  await waitFor('every kind of mail', () =>
    MAIL_KINDS.every((kind) => captured.some((mail) => kind.match(mail))),
  );

  const keep = process.env.KEEP_MAIL;
  if (keep) await mkdir(keep, { recursive: true });
  console.log(
    `SpamAssassin ${spawnSync('spamassassin', ['-V']).stdout.toString().split('\n')[0]?.replace('SpamAssassin version ', '')} (local tests only), at most ${MAX_SCORE.toFixed(1)} each:\n`,
  );
  console.log(`Machine: ${machine()}\n`);
  console.log('| Mail | Score | Rules hit (points) |\n|---|---|---|');
  for (const { kind, match } of MAIL_KINDS) {
    const mail = captured.find(match);
    if (!mail) throw new Error(`no ${kind} mail arrived`);
    const message = asReceived(mail);
    if (keep) await writeFile(path.join(keep, `${kind.replace(/\W+/g, '-')}.eml`), message);
    const { score, rules } = spamScore(message);
    if (score > MAX_SCORE) failed = true;
    console.log(
      `| ${kind} | ${score.toFixed(1)}${score > MAX_SCORE ? ' (too high)' : ''} | ${rules.join(', ')} |`,
    );
  }
} finally {
  await running.stop();
  await fakes.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
