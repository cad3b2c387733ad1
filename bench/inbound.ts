/**
 * Newsletters received by SMTP (issue 14): the real program with the `inbound` role, 50 concurrent SMTP
 * senders (nodemailer) sending a realistic 30–60 KB HTML newsletter each to the mailbox of a user created
 * through the API, on the embedded database and on PostgreSQL in one run. Then oversized messages (60 MB,
 * streamed from a generator) against INBOUND_MAX_MESSAGE_MB, with the server's memory sampled.
 *
 *   npx tsx bench/inbound.ts                         builds the server, then MODE=both SENDERS=50 MESSAGES=2000
 *   SKIP_BUILD=1 MODE=postgres SENDERS=50 USERS=50 MESSAGES=2000 npx tsx bench/inbound.ts
 *   OVERSIZE_MESSAGES=10 OVERSIZE_MB=60 OVERSIZE_CONCURRENCY=10 …   the oversized part (0 skips it)
 *   REUSE=1 …                                        each sender keeps one SMTP connection (default: one per message)
 *   PROFILE=/tmp/prof OVERSIZE_MESSAGES=0 …          the server runs with --cpu-prof; the top functions are printed
 *   PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres   where the throw-away database is created
 *
 * The server is `node apps/server/dist/main.js` (LOG_LEVEL=warn, every role in one process, in both modes),
 * with INBOUND_SMTP_HOST=127.0.0.1, INBOUND_CONNECTIONS_PER_MINUTE raised to 1 000 000 and
 * INBOUND_MAX_CLIENTS to 200 (every sender connects from 127.0.0.1), and TRUST_PROXY=true so that each
 * bench user signs up from its own X-Forwarded-For address (the per-address sign-up limit is 20 an hour).
 * No SMTP_URL: the verification mails go to DATA_DIR/outbox, where the bench reads each link and follows it.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import DKIM from 'nodemailer/lib/dkim';
import MailComposer from 'nodemailer/lib/mail-composer';
import {
  buildServer,
  createBenchDatabase,
  envNumber,
  freePort,
  type Mode,
  machine,
  modesFrom,
  percentile,
  type ServerProcess,
  sleep,
  startServer,
  summariseProfile,
  waitForHealth,
} from './burst-kit';

const SENDERS = envNumber('SENDERS', 50);
const USERS = envNumber('USERS', SENDERS);
const MESSAGES = envNumber('MESSAGES', 2000);
const REUSE = process.env.REUSE === '1';
const POLL_MS = envNumber('POLL_MS', 50);
const LISTED_TIMEOUT_MS = envNumber('LISTED_TIMEOUT_SECONDS', 60) * 1000;
const OVERSIZE_MESSAGES = envNumber('OVERSIZE_MESSAGES', 10);
const OVERSIZE_MB = envNumber('OVERSIZE_MB', 60);
const OVERSIZE_CONCURRENCY = Math.max(1, envNumber('OVERSIZE_CONCURRENCY', OVERSIZE_MESSAGES));
const MAX_MESSAGE_MB = envNumber('INBOUND_MAX_MESSAGE_MB', 25);
const PROFILE = process.env.PROFILE;
const MAIL_DOMAIN = 'mail.bench.test';
const MiB = 2 ** 20;

// ---------------------------------------------------------------------------------------------------
// The newsletters
// ---------------------------------------------------------------------------------------------------

const WORDS = (
  'the a of to and in for on with as by at from this that which new how why what week market city ' +
  'research team data report open source release climate energy policy design people company school ' +
  'story reader review interview guide analysis science health travel book music film history future ' +
  'small large early late public private local global simple careful honest quiet practical'
).split(' ');

/** A deterministic pseudo-random generator, so every run sends the same newsletters. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(random: () => number, words: number): string {
  const chosen = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]);
  const text = chosen.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

interface Newsletter {
  html: string;
  text: string;
}

/**
 * An ESP-style newsletter: nested tables with inline styles, a logo, articles with a picture, paragraphs
 * and a tracked "Read more" link (UTM parameters), a footer with the unsubscribe link and postal address,
 * and an open-tracking pixel; about `targetBytes` of HTML, plus its text part.
 */
export function newsletter(sender: number, issue: number, targetBytes: number): Newsletter {
  const random = lcg(sender * 7919 + issue);
  const site = `https://weekly-${sender}.letters.example`;
  const td =
    'style="padding:0 24px 16px 24px;font-family:Georgia,serif;font-size:17px;line-height:1.6;color:#222"';
  const head =
    '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    `<title>Weekly ${sender}</title><style>@media (max-width:600px){.col{width:100%!important}}</style></head>` +
    '<body style="margin:0;padding:0;background:#f4f4f4">' +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f4"><tr><td align="center">' +
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#ffffff;max-width:600px">' +
    `<tr><td style="padding:24px"><a href="${site}/?utm_source=newsletter&amp;utm_medium=email"><img src="${site}/logo.png" width="180" height="40" alt="Weekly ${sender}" style="display:block;border:0"></a></td></tr>`;
  const articles: string[] = [];
  const texts: string[] = [`Weekly ${sender}, issue ${issue}`, ''];
  let size = head.length;
  for (let n = 0; size < targetBytes - 1500; n++) {
    const title = sentence(random, 6 + Math.floor(random() * 5)).slice(0, -1);
    const paragraphs = Array.from({ length: 2 + Math.floor(random() * 3) }, () =>
      Array.from({ length: 3 + Math.floor(random() * 4) }, () =>
        sentence(random, 8 + Math.floor(random() * 12)),
      ).join(' '),
    );
    const link = `https://click.letters.example/ls/click?upn=${randomBytes(24).toString('hex')}&amp;u=${encodeURIComponent(`${site}/${issue}/${n}?utm_source=newsletter&utm_medium=email&utm_campaign=issue-${issue}`)}`;
    const article =
      `<tr><td ${td}><h2 style="font-family:Helvetica,Arial,sans-serif;font-size:22px;margin:16px 0 8px 0;color:#111">${title}</h2>` +
      `<img src="${site}/images/${issue}-${n}.jpg" width="552" height="310" alt="" style="display:block;width:100%;height:auto;border:0;margin:0 0 12px 0">` +
      paragraphs.map((p) => `<p style="margin:0 0 12px 0">${p}</p>`).join('') +
      `<p style="margin:0"><a href="${link}" style="color:#0a58ca;font-weight:bold;text-decoration:none">Read more &rarr;</a></p></td></tr>`;
    articles.push(article);
    texts.push(title, '', ...paragraphs, `Read more: ${site}/${issue}/${n}`, '');
    size += article.length;
  }
  const footer =
    `<tr><td style="padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:12px;color:#777">` +
    `You receive this because you subscribed to Weekly ${sender}. <a href="${site}/unsubscribe?u=${sender}&amp;i=${issue}" style="color:#777">Unsubscribe</a> · ` +
    `<a href="${site}/preferences" style="color:#777">Preferences</a><br>Weekly ${sender}, 1 Example Street, 00-000 Example City</td></tr>` +
    `</table></td></tr></table><img src="https://open.letters.example/o/${randomBytes(16).toString('hex')}.gif" width="1" height="1" alt="" style="display:block"></body></html>`;
  texts.push(`Unsubscribe: ${site}/unsubscribe?u=${sender}&i=${issue}`);
  return { html: head + articles.join('') + footer, text: texts.join('\n') };
}

interface Outgoing {
  sender: number;
  user: number;
  subject: string;
  raw: Buffer;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Every message of the run, composed and DKIM-signed before anything is timed (the bench shares the CPU
 * with the server). The signing domain has no DNS record, so the server's DKIM check ends without a key.
 */
async function composeMessages(count: number, usernames: (user: number) => string): Promise<Outgoing[]> {
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const dkim = new DKIM({ domainName: 'letters.example', keySelector: 'bench2026', privateKey });
  const messages: Outgoing[] = [];
  for (let index = 0; index < count; index++) {
    const sender = index % SENDERS;
    const issue = Math.floor(index / SENDERS) + 1;
    const user = sender % USERS;
    // HTML of 16–32 KB and its text part: 30–60 KB on the wire (quoted-printable).
    const target = 16_000 + Math.floor(lcg(index)() * 16_000);
    const { html, text } = newsletter(sender, issue, target);
    const subject = `Weekly ${sender}, issue ${issue}: the week in review [${index}]`;
    const built = await new MailComposer({
      from: `Weekly ${sender} <news@weekly-${sender}.letters.example>`,
      to: `${usernames(user)}@${MAIL_DOMAIN}`,
      subject,
      html,
      text,
      messageId: `<${randomUUID()}@weekly-${sender}.letters.example>`,
      headers: {
        'List-Id': `Weekly ${sender} <weekly-${sender}.letters.example>`,
        'List-Unsubscribe': `<https://weekly-${sender}.letters.example/unsubscribe/${randomBytes(8).toString('hex')}>, <mailto:unsubscribe+${sender}@letters.example>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        Precedence: 'bulk',
      },
    })
      .compile()
      .build();
    messages.push({ sender, user, subject, raw: await collect(dkim.sign(built)) });
  }
  return messages;
}

/**
 * A message of `bytes` streamed in 64 KiB chunks (text lines of 76 characters), never held whole: headers
 * first, then the same chunk again and again.
 */
export async function* oversizedMessage(bytes: number, to: string, id: string): AsyncGenerator<Buffer> {
  const head = Buffer.from(
    `From: Big Sender <big@letters.example>\r\nTo: ${to}\r\nSubject: A huge newsletter ${id}\r\n` +
      `Message-ID: <${id}@letters.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n`,
  );
  yield head;
  const line = `${'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(3).slice(0, 76)}\r\n`;
  const chunk = Buffer.from(line.repeat(Math.floor(65_536 / line.length)));
  let left = bytes - head.length;
  while (left > 0) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
}

// ---------------------------------------------------------------------------------------------------
// Server, users and memory
// ---------------------------------------------------------------------------------------------------

async function readStatusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Samples VmRSS every `everyMs` until stopped. */
function sampleRss(pid: number, everyMs: number) {
  const samples: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      samples.push(await readStatusKiB(pid, 'VmRSS'));
      await sleep(everyMs);
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await done;
      return samples;
    },
  };
}

/** CPU time used so far: the machine's (busy and total jiffies), the server's and this process's, in seconds. */
async function cpuSnapshot(pid: number) {
  const stat = await readFile('/proc/stat', 'utf8');
  const fields = (stat.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const processStat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const after = processStat.slice(processStat.lastIndexOf(')') + 2).split(' ');
  const ticks = 100; // USER_HZ on Linux
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    machineBusy: (total - idle) / ticks,
    machineTotal: total / ticks,
    server: (Number(after[11] ?? 0) + Number(after[12] ?? 0)) / ticks,
    bench: (own.user + own.system) / 1e6,
  };
}

type CpuSnapshot = Awaited<ReturnType<typeof cpuSnapshot>>;

export interface CpuUse {
  /** Share of the machine's CPU (all cores) busy, 0–1. */
  machineBusy: number;
  serverSeconds: number;
  benchSeconds: number;
  cores: number;
  loadAverage: number;
}

function cpuBetween(start: CpuSnapshot, end: CpuSnapshot): CpuUse {
  return {
    machineBusy: (end.machineBusy - start.machineBusy) / (end.machineTotal - start.machineTotal),
    serverSeconds: end.server - start.server,
    benchSeconds: end.bench - start.bench,
    cores: os.cpus().length,
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

async function waitForSmtp(port: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(2000);
      socket.once('data', (data) => {
        socket.end('QUIT\r\n');
        resolve(data.toString().startsWith('220'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (greeted) return;
    await sleep(200);
  }
  throw new Error(`the inbound SMTP server did not answer on port ${port}`);
}

interface BenchUser {
  username: string;
  authorization: string;
}

async function api(
  base: string,
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The verification link mailed to `email`, read from the outbox (no SMTP_URL: one .eml file per mail). */
async function verificationToken(outbox: string, email: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    // The mailer writes `.name.eml.tmp` and renames it when complete.
    for (const file of files.filter((name) => name.endsWith('.eml') && !name.startsWith('.'))) {
      const raw = await readFile(path.join(outbox, file));
      if (!raw.includes(email)) continue;
      const parsed = await simpleParser(raw);
      if (!parsed.to || !JSON.stringify(parsed.to).includes(email)) continue;
      const token = /\/verify-email\?token=([\w-]+)/.exec(parsed.text ?? '')?.[1];
      if (token) return token;
    }
    await sleep(200);
  }
  throw new Error(`no verification mail for ${email}`);
}

/**
 * A user as a person makes one: sign up, follow the mailed verification link (which signs in), choose a
 * username (the mailbox's address). Each from its own client address (X-Forwarded-For, TRUST_PROXY=true).
 */
async function createUser(base: string, outbox: string, index: number): Promise<BenchUser> {
  const email = `reader${index}@readers.example`;
  const forwarded = { 'x-forwarded-for': `10.77.${index >> 8}.${index & 255}` };
  await api(
    base,
    'POST',
    '/api/auth/signup/email',
    { email, password: 'bench passw0rd!', confirmed: true },
    forwarded,
  );
  const t0 = performance.now();
  const token = await verificationToken(outbox, email);
  if (process.env.DEBUG_USERS)
    console.log(`user ${index}: signup→token ${Math.round(performance.now() - t0)} ms`);
  const verified = await api(base, 'POST', '/api/auth/email/verify', { token }, forwarded);
  const authorization = `Bearer ${verified.token.accessToken}`;
  const username = `reader${index}`;
  await api(base, 'PATCH', '/api/users/me', { username }, { ...forwarded, authorization });
  return { username, authorization };
}

async function inParallel<T>(count: number, concurrency: number, task: (index: number) => Promise<T>) {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------------
// The measured parts
// ---------------------------------------------------------------------------------------------------

interface ThroughputResult {
  accepted: number;
  seconds: number;
  dataEndTo250: number[];
  dataEndToListed: number[];
  /** Messages listed by the first GET after their 250 (all of them, if 250 comes only after the commit). */
  listedOnFirstPoll: number;
  polls: number;
  errors: string[];
  bytes: number;
}

/**
 * SENDERS concurrent senders, each sending its share of `messages` one after another to its user. The
 * end of DATA is when nodemailer has read the last byte of the message (written to the socket; no DKIM
 * or other transform in nodemailer between); the 250 is sendMail's answer. After its 250 each message is
 * looked for in its user's `GET /api/newsletters/messages` (one poller per user, POLL_MS between tries).
 */
async function sendAll(
  smtpPort: number,
  base: string,
  users: BenchUser[],
  messages: Outgoing[],
): Promise<ThroughputResult> {
  const errors: string[] = [];
  const dataEndTo250: number[] = [];
  const dataEndToListed: number[] = [];
  let listedOnFirstPoll = 0;
  let polls = 0;
  let accepted = 0;
  const pending = users.map(() => new Map<string, { dataEnd: number; tries: number }>());
  const wake: (() => void)[] = users.map(() => () => {});
  let sending = true;

  const poller = async (user: number) => {
    const waiting = pending[user] as Map<string, { dataEnd: number; tries: number }>;
    const { authorization } = users[user] as BenchUser;
    while (sending || waiting.size > 0) {
      if (waiting.size === 0) {
        await new Promise<void>((resolve) => {
          wake[user] = resolve;
        });
        continue;
      }
      polls += 1;
      let listed: Set<string>;
      try {
        const response = await fetch(`${base}/api/newsletters/messages?limit=20`, {
          headers: { authorization },
        });
        if (!response.ok) throw new Error(`GET /api/newsletters/messages: ${response.status}`);
        const page = (await response.json()) as { messages: { subject: string }[] };
        listed = new Set(page.messages.map((message) => message.subject));
      } catch (error) {
        errors.push(String(error));
        await sleep(POLL_MS);
        continue;
      }
      const now = performance.now();
      for (const [subject, entry] of waiting) {
        entry.tries += 1;
        if (listed.has(subject)) {
          dataEndToListed.push(now - entry.dataEnd);
          if (entry.tries === 1) listedOnFirstPoll += 1;
          waiting.delete(subject);
        } else if (now - entry.dataEnd > LISTED_TIMEOUT_MS) {
          errors.push(`not listed after ${LISTED_TIMEOUT_MS} ms: ${subject}`);
          waiting.delete(subject);
        }
      }
      if (waiting.size > 0) await sleep(POLL_MS);
    }
  };

  const queues = Array.from({ length: SENDERS }, (_, sender) => messages.filter((m) => m.sender === sender));
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  const sender = async (queue: Outgoing[]) => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      ignoreTLS: true,
      ...(REUSE ? { pool: true, maxConnections: 1, maxMessages: Number.POSITIVE_INFINITY } : {}),
    });
    for (const message of queue) {
      const started = performance.now();
      first = Math.min(first, started);
      let dataEnd = 0;
      const raw = Readable.from(chunksOf(message.raw, 16_384));
      raw.once('end', () => {
        dataEnd = performance.now();
      });
      try {
        const info = await transport.sendMail({
          envelope: {
            from: `bounce-${message.sender}@weekly-${message.sender}.letters.example`,
            to: recipient(message),
          },
          raw,
        });
        const answered = performance.now();
        last = Math.max(last, answered);
        if (!info.response.startsWith('250')) {
          errors.push(`answer ${info.response}`);
          continue;
        }
        accepted += 1;
        dataEndTo250.push(answered - dataEnd);
        pending[message.user]?.set(message.subject, { dataEnd, tries: 0 });
        wake[message.user]?.();
      } catch (error) {
        last = Math.max(last, performance.now());
        errors.push(String(error));
      }
    }
    transport.close();
  };
  const recipient = (message: Outgoing) => `${(users[message.user] as BenchUser).username}@${MAIL_DOMAIN}`;
  const pollers = users.map((_, user) => poller(user));
  await Promise.all(queues.map(sender));
  sending = false;
  for (const resolve of wake) resolve();
  await Promise.all(pollers);
  return {
    accepted,
    seconds: (last - first) / 1000,
    dataEndTo250,
    dataEndToListed,
    listedOnFirstPoll,
    polls,
    errors,
    bytes: messages.reduce((sum, message) => sum + message.raw.length, 0),
  };
}

function* chunksOf(buffer: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < buffer.length; at += size) yield buffer.subarray(at, at + size);
}

interface OversizeResult {
  answers: string[];
  seconds: number;
  beforeMiB: number;
  peakMiB: number;
  afterMiB: number;
}

/** OVERSIZE_MESSAGES messages of OVERSIZE_MB, OVERSIZE_CONCURRENCY at a time, with VmRSS sampled every 20 ms. */
async function sendOversized(smtpPort: number, server: ServerProcess, to: string): Promise<OversizeResult> {
  const settle = sampleRss(server.pid, 100);
  await sleep(2000);
  const before = await settle.stop();
  const sampler = sampleRss(server.pid, 20);
  const started = performance.now();
  const answers = await inParallel(OVERSIZE_MESSAGES, OVERSIZE_CONCURRENCY, async (index) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, ignoreTLS: true });
    try {
      const info = await transport.sendMail({
        envelope: { from: 'big@letters.example', to },
        raw: Readable.from(oversizedMessage(OVERSIZE_MB * MiB, to, `huge-${index}-${randomUUID()}`)),
      });
      return info.response;
    } catch (error) {
      const { responseCode, response } = error as { responseCode?: number; response?: string };
      return responseCode ? String(response) : String(error);
    } finally {
      transport.close();
    }
  });
  const seconds = (performance.now() - started) / 1000;
  await sleep(5000);
  const during = await sampler.stop();
  const after = await readStatusKiB(server.pid, 'VmRSS');
  const median = (values: number[]) => percentile(values, 50);
  return {
    answers,
    seconds,
    beforeMiB: median(before) / 1024,
    peakMiB: Math.max(...during) / 1024,
    afterMiB: after / 1024,
  };
}

// ---------------------------------------------------------------------------------------------------
// A run
// ---------------------------------------------------------------------------------------------------

interface SendingResult {
  throughput: ThroughputResult;
  cpu: CpuUse;
  /** Highest VmRSS sampled (every 100 ms) while sending. */
  peakRssMiB: number;
  /** VmHWM after sending: the process's peak since it started, the oversized messages included. */
  lifetimePeakMiB: number;
  beforeSendingRssMiB: number;
  afterSendingRssMiB: number;
}

interface ModeResult extends Partial<SendingResult> {
  mode: Mode;
  oversize?: OversizeResult | undefined;
}

async function runMode(
  mode: Mode,
  compose: (users: BenchUser[]) => Promise<Outgoing[]>,
): Promise<ModeResult> {
  const database = await createBenchDatabase(mode);
  const logDir = await mkdtemp(path.join(os.tmpdir(), `digest-inbound-logs-${mode}-`));
  const port = await freePort();
  const smtpPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profileDir = PROFILE ? path.join(PROFILE, mode) : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  let profileWindow: [number, number] | undefined;
  const spawnedAt = performance.now();
  const server = startServer(
    'all roles',
    {
      ...database.serverEnv,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: base,
      APP_SECRET: randomBytes(32).toString('hex'),
      ROLES: 'api,worker,scheduler,inbound',
      MAIL_DOMAIN,
      INBOUND_SMTP_PORT: String(smtpPort),
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_MAX_MESSAGE_MB: String(MAX_MESSAGE_MB),
      INBOUND_CONNECTIONS_PER_MINUTE: '1000000',
      INBOUND_MAX_CLIENTS: '200',
      TRUST_PROXY: 'true',
    },
    path.join(logDir, 'server.log'),
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  let failed = true;
  try {
    await waitForHealth(base);
    await waitForSmtp(smtpPort);
    const outbox = path.join(database.serverEnv.DATA_DIR as string, 'outbox');
    const createdAt = performance.now();
    // One mailbox first, then the oversized messages to it, on a process that has done almost nothing yet:
    // memory freed by earlier work (the sign-ups' password hashing, PGlite) but kept resident would hide a growth.
    const users = [await createUser(base, outbox, 0)];
    const oversize =
      OVERSIZE_MESSAGES > 0
        ? await sendOversized(smtpPort, server, `${(users[0] as BenchUser).username}@${MAIL_DOMAIN}`)
        : undefined;
    users.push(...(await inParallel(USERS - 1, 5, (index) => createUser(base, outbox, index + 1))));
    console.log(`${mode}: ${users.length} users in ${((performance.now() - createdAt) / 1000).toFixed(1)} s`);
    if (MESSAGES === 0) {
      failed = false;
      return { mode, oversize };
    }
    const messages = await compose(users);
    const beforeSendingRssMiB = (await readStatusKiB(server.pid, 'VmRSS')) / 1024;
    // A warm-up: one message per sender, not counted (JIT, pools, the senders' rows).
    const warmup = messages.slice(0, SENDERS);
    await sendAll(smtpPort, base, users, warmup);
    const cpuStart = await cpuSnapshot(server.pid);
    const rss = sampleRss(server.pid, 100);
    const throughput = await sendAll(smtpPort, base, users, messages.slice(SENDERS));
    const peakRssMiB = Math.max(...(await rss.stop())) / 1024;
    const cpuEnd = await cpuSnapshot(server.pid);
    const cpu = cpuBetween(cpuStart, cpuEnd);
    // The profile is read for the measured part only (its clock starts about when the process does).
    profileWindow = [(cpuStart.at - spawnedAt) / 1000, (cpuEnd.at - spawnedAt) / 1000];
    const afterSendingRssMiB = (await readStatusKiB(server.pid, 'VmRSS')) / 1024;
    const lifetimePeakMiB = (await readStatusKiB(server.pid, 'VmHWM')) / 1024;
    console.log(
      `${mode}: ${throughput.accepted} accepted in ${throughput.seconds.toFixed(1)} s, ${throughput.errors.length} errors`,
    );
    failed = throughput.errors.length > 0;
    return {
      mode,
      throughput,
      cpu,
      peakRssMiB,
      lifetimePeakMiB,
      beforeSendingRssMiB,
      afterSendingRssMiB,
      oversize,
    };
  } finally {
    await server.stop();
    if (profileDir) await summariseProfile(profileDir, profileWindow);
    if (failed || process.env.KEEP_LOGS) console.log(`${mode}: server log in ${logDir}`);
    else await rm(logDir, { recursive: true, force: true });
    await database.dispose();
  }
}

const ms = (value: number) => `${Math.round(value)} ms`;

function printResults(results: ModeResult[]) {
  const column = (render: (result: ModeResult) => string) => results.map(render).join(' | ');
  console.log(
    `\n| Measure | ${column((r) => (r.mode === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL'))} |`,
  );
  console.log(`|---|${results.map(() => '---').join('|')}|`);
  type Sent = ModeResult & SendingResult;
  const sendingRows: [string, (r: Sent) => string][] = [
    [
      'messages accepted (250)',
      (r) => `${r.throughput.accepted} of ${r.throughput.accepted + r.throughput.errors.length}`,
    ],
    ['**messages accepted/s**', (r) => (r.throughput.accepted / r.throughput.seconds).toFixed(1)],
    ['MB/s of mail', (r) => (r.throughput.bytes / 1e6 / r.throughput.seconds).toFixed(2)],
    [
      '**end of DATA → 250** p50 / p99 / max',
      (r) =>
        `${ms(percentile(r.throughput.dataEndTo250, 50))} / ${ms(percentile(r.throughput.dataEndTo250, 99))} / ${ms(Math.max(...r.throughput.dataEndTo250))}`,
    ],
    [
      '**end of DATA → listed** p50 / p99 / max',
      (r) =>
        `${ms(percentile(r.throughput.dataEndToListed, 50))} / ${ms(percentile(r.throughput.dataEndToListed, 99))} / ${ms(Math.max(...r.throughput.dataEndToListed))}`,
    ],
    [
      'listed by the first GET after the 250',
      (r) => `${r.throughput.listedOnFirstPoll} of ${r.throughput.dataEndToListed.length}`,
    ],
    ['list polls (GET /api/newsletters/messages)', (r) => String(r.throughput.polls)],
    [
      'RSS before sending / **peak while sending** / after',
      (r) =>
        `${Math.round(r.beforeSendingRssMiB)} / ${Math.round(r.peakRssMiB)} / ${Math.round(r.afterSendingRssMiB)} MiB`,
    ],
    ['peak RSS since start (VmHWM)', (r) => `${Math.round(r.lifetimePeakMiB)} MiB`],
    ['**errors**', (r) => String(r.throughput.errors.length)],
    [
      'server CPU per message accepted',
      (r) => `${((1000 * r.cpu.serverSeconds) / r.throughput.accepted).toFixed(1)} ms`,
    ],
    [
      'CPU while sending: server / bench / whole machine busy',
      (r) =>
        `${(r.cpu.serverSeconds / r.throughput.seconds).toFixed(2)} / ${(r.cpu.benchSeconds / r.throughput.seconds).toFixed(2)} cores / ${Math.round(100 * r.cpu.machineBusy)} % of ${r.cpu.cores} (load ${r.cpu.loadAverage.toFixed(1)})`,
    ],
  ];
  const rows: [string, (r: ModeResult) => string][] = results.every((r) => r.throughput)
    ? sendingRows.map(([label, render]) => [label, (r) => render(r as Sent)])
    : [];
  if (results.some((r) => r.oversize)) {
    rows.push(
      [
        `${OVERSIZE_MESSAGES} × ${OVERSIZE_MB} MB (${OVERSIZE_CONCURRENCY} at a time): answers`,
        (r) => describeAnswers(r.oversize?.answers ?? []),
      ],
      ['oversized: wall', (r) => `${r.oversize?.seconds.toFixed(1)} s`],
      [
        '**oversized: RSS before / peak / 5 s after**',
        (r) =>
          r.oversize
            ? `${Math.round(r.oversize.beforeMiB)} / ${Math.round(r.oversize.peakMiB)} / ${Math.round(r.oversize.afterMiB)} MiB (peak +${Math.round(r.oversize.peakMiB - r.oversize.beforeMiB)})`
            : '–',
      ],
    );
  }
  for (const [label, render] of rows) console.log(`| ${label} | ${column(render)} |`);
  for (const result of results) {
    const distinct = [...new Set(result.throughput?.errors ?? [])].slice(0, 5);
    if (distinct.length) console.log(`${result.mode} errors (first distinct): ${distinct.join(' · ')}`);
  }
}

function describeAnswers(answers: string[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const code = /^\d{3}/.exec(answer)?.[0] ?? answer.slice(0, 60);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return [...counts].map(([code, count]) => `${count} × ${code}`).join(', ');
}

async function main() {
  buildServer();
  // Composed once (the usernames are the same in every mode) and reused by each mode.
  let composed: Outgoing[] | undefined;
  const compose = async (users: BenchUser[]) => {
    if (!composed) {
      const started = performance.now();
      composed = await composeMessages(SENDERS + MESSAGES, (user) => (users[user] as BenchUser).username);
      const sizes = composed.map((message) => message.raw.length);
      console.log(
        `composed ${composed.length} messages (${Math.round(Math.min(...sizes) / 1024)}–${Math.round(Math.max(...sizes) / 1024)} KiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    return composed;
  };
  const results: ModeResult[] = [];
  for (const mode of modesFrom(process.env.MODE, 'both')) results.push(await runMode(mode, compose));
  console.log(
    `\n${SENDERS} senders → ${USERS} mailboxes, ${MESSAGES} messages (+${SENDERS} warm-up), ` +
      `${REUSE ? 'one SMTP connection per sender' : 'one SMTP connection per message'}, ` +
      `INBOUND_MAX_MESSAGE_MB=${MAX_MESSAGE_MB}; ${machine()}`,
  );
  printResults(results);
  const refusedOversize = (r: ModeResult) =>
    (r.oversize?.answers ?? []).every((answer) => answer.startsWith('552'));
  if (results.some((r) => (r.throughput?.errors.length ?? 0) > 0 || !refusedOversize(r)))
    process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
