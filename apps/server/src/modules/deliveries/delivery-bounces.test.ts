import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digestSubscribers, issueRuns, mailSuppressions } from '#server/db/schema';
import { createDigest } from '#server/modules/digests/test-support';
import { buildIssue } from '#server/modules/issues/build-issue.usecases';
import { addFriends } from '#server/modules/subscribers/test-support';
import { signUp } from '#server/modules/users/test-support';
import { bounceTokenOf } from '#server/platform/mailer';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { testClock } from '#server-test/test-clock';
import { createDatabaseAt } from '#server-test/upgrade-database';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { receiveBounceMail } from './bounce-mail';
import { deliver } from './deliveries.usecases';
import { BOUNCE_DIAGNOSTIC_MAX_LENGTH, recordDeliveryBounce } from './delivery-bounces';

// An issue built and sent to a real SMTP server; bounces come back to the envelope sender it saw.
let fakes: FakeProviders;
let smtp: TestSmtpServer;
let t: TestApi;
beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer();
  t = await startTestApi({ fakes, smtp });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const clock = testClock(new Date('2026-11-25T10:00:00Z'));
const bounceDeps = () => ({ db: t.database.db, clock });

const rowOf = async (deliveryId: string) =>
  (await t.database.db.select().from(deliveries).where(eq(deliveries.deliveryId, deliveryId)))[0];

/** An issue of a digest with one friend, both copies sent; with the envelope sender each arrived with. */
async function sentIssue() {
  const owner = await signUp(t);
  const digest = await createDigest(t.app, owner, {
    name: 'Bounce Notes',
    sources: [
      { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml` },
      { type: 'DATE' },
      { type: 'HACKER_NEWS' },
    ],
  });
  await addFriends(t.database.db, digest.digestId, ['friend@example.com']);
  const [run] = await t.database.db
    .insert(issueRuns)
    .values({ digestId: digest.digestId, slot: new Date() })
    .returning();
  await buildIssue(t.modules.issuesDeps, run?.runId ?? '');
  const rows = await t.database.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.digestId, digest.digestId))
    .orderBy(deliveries.kind);
  for (const row of rows) await deliver(t.modules.deliveryDeps, row.deliveryId);
  return rows.map((row) => {
    const mail = smtp.received.find((received) => received.parsed.messageId === row.messageId);
    if (!mail) throw new Error('not received');
    return { row, mail };
  });
}

describe('VERP: each delivery has its own envelope sender', () => {
  it('sends each copy of an issue from <local>+b-<its token>@<domain> of MAIL_FROM, the header From unchanged', async () => {
    const sent = await sentIssue();
    expect(sent).toHaveLength(2);
    for (const { row, mail } of sent) {
      expect(row.bounceToken).toMatch(/^[0-9a-f]{32}$/);
      expect(row.bounceToken).not.toContain(row.deliveryId.replace(/-/g, ''));
      expect(mail.mailFrom).toBe(`digest+b-${row.bounceToken}@localhost`);
      expect(mail.parsed.from?.value).toEqual([{ name: 'Digest', address: 'digest@localhost' }]);
      expect(mail.parsed.headers.has('sender')).toBe(false);
    }
    expect(new Set(sent.map(({ row }) => row.bounceToken)).size).toBe(2);
  });
});

describe('recording a bounce or complaint on its delivery', () => {
  it('a bounce sent back to the envelope sender is recorded on that delivery only: kind, time and diagnostic', async () => {
    const [owner, friend] = await sentIssue();
    if (!owner || !friend) throw new Error('deliveries missing');

    const outcome = await recordDeliveryBounce(bounceDeps(), {
      bounceToken: bounceTokenOf(friend.mail.mailFrom ?? '') ?? '',
      kind: 'bounce',
      diagnostic: '5.1.1 smtp; 550 5.1.1 <friend@example.com>: Recipient address rejected: User unknown',
    });

    expect(outcome).toEqual({
      outcome: 'recorded',
      delivery: {
        deliveryId: friend.row.deliveryId,
        digestId: friend.row.digestId,
        kind: 'subscriber',
        recipient: 'friend@example.com',
        subscriberId: friend.row.subscriberId,
        bouncedAt: clock.now(),
        bounceKind: 'bounce',
        bounceDiagnostic:
          '5.1.1 smtp; 550 5.1.1 <friend@example.com>: Recipient address rejected: User unknown',
      },
    });
    expect(await rowOf(friend.row.deliveryId)).toMatchObject({
      state: 'sent',
      bouncedAt: clock.now(),
      bounceKind: 'bounce',
    });
    expect(await rowOf(owner.row.deliveryId)).toMatchObject({
      bouncedAt: null,
      bounceKind: null,
      bounceDiagnostic: null,
    });
  });

  it('is idempotent: the same report again changes nothing; a complaint replaces a bounce, never the reverse', async () => {
    const [, friend] = await sentIssue();
    const bounceToken = friend?.row.bounceToken ?? '';
    const deliveryId = friend?.row.deliveryId ?? '';
    const first = clock.now();

    await recordDeliveryBounce(bounceDeps(), { bounceToken, kind: 'bounce', diagnostic: 'mailbox full' });
    clock.advance(60_000);
    const again = await recordDeliveryBounce(bounceDeps(), {
      bounceToken,
      kind: 'bounce',
      diagnostic: 'other',
    });
    expect(again).toMatchObject({
      outcome: 'already-recorded',
      delivery: { bounceDiagnostic: 'mailbox full' },
    });
    expect(await rowOf(deliveryId)).toMatchObject({ bouncedAt: first, bounceKind: 'bounce' });

    clock.advance(60_000);
    const complaint = await recordDeliveryBounce(bounceDeps(), { bounceToken, kind: 'complaint' });
    expect(complaint).toMatchObject({ outcome: 'recorded', delivery: { bounceKind: 'complaint' } });
    const complainedAt = clock.now();
    expect(await rowOf(deliveryId)).toMatchObject({
      bouncedAt: complainedAt,
      bounceKind: 'complaint',
      bounceDiagnostic: null,
    });

    clock.advance(60_000);
    expect(await recordDeliveryBounce(bounceDeps(), { bounceToken, kind: 'bounce' })).toMatchObject({
      outcome: 'already-recorded',
    });
    expect(await recordDeliveryBounce(bounceDeps(), { bounceToken, kind: 'complaint' })).toMatchObject({
      outcome: 'already-recorded',
    });
    expect(await rowOf(deliveryId)).toMatchObject({ bouncedAt: complainedAt, bounceKind: 'complaint' });
  });

  it('reads a token whose case a server changed', async () => {
    const [owner] = await sentIssue();
    const outcome = await recordDeliveryBounce(bounceDeps(), {
      bounceToken: (owner?.row.bounceToken ?? '').toUpperCase(),
      kind: 'bounce',
    });
    expect(outcome).toMatchObject({ outcome: 'recorded', delivery: { deliveryId: owner?.row.deliveryId } });
  });

  it.each([
    ['a token no delivery has', 'f'.repeat(32)],
    ['a delivery id', '00000000-0000-4000-8000-000000000000'],
    ['a short token', 'abc'],
    ['SQL', "' or 1=1 --"],
    ['empty', ''],
  ])('answers unknown for %s and changes nothing', async (_case, bounceToken) => {
    const [owner] = await sentIssue();
    expect(await recordDeliveryBounce(bounceDeps(), { bounceToken, kind: 'complaint' })).toEqual({
      outcome: 'unknown',
    });
    expect(
      await t.database.db
        .select({ id: deliveries.deliveryId })
        .from(deliveries)
        .where(eq(deliveries.bounceKind, 'complaint')),
    ).not.toContainEqual({ id: owner?.row.deliveryId });
    expect(await rowOf(owner?.row.deliveryId ?? '')).toMatchObject({ bouncedAt: null, bounceKind: null });
  });

  it('keeps the diagnostic to one line of at most 500 characters, without control characters', async () => {
    const [owner] = await sentIssue();
    const outcome = await recordDeliveryBounce(bounceDeps(), {
      bounceToken: owner?.row.bounceToken ?? '',
      kind: 'bounce',
      diagnostic: `550 5.7.1\r\nX-Injected: yes\u0000\u202e ${'x'.repeat(2_000)}`,
    });
    const diagnostic = outcome.outcome === 'recorded' ? outcome.delivery.bounceDiagnostic : '';
    expect(diagnostic).toHaveLength(BOUNCE_DIAGNOSTIC_MAX_LENGTH);
    expect(diagnostic?.startsWith('550 5.7.1 X-Injected: yes x')).toBe(true);
    expect(diagnostic).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });
});

/** A report as a receiving mail server writes it: a human part, then the machine-readable one. */
function reportMail(token: string, reportType: string, machinePart: string) {
  return Buffer.from(
    [
      'From: Mail Delivery System <MAILER-DAEMON@mx.example.com>',
      `To: digest+b-${token}@localhost`,
      'Subject: Undelivered Mail Returned to Sender',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=${reportType}; boundary="REPORT"`,
      '',
      '--REPORT',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'Status: 2.0.0 is what a careless human part might say; the machine part decides.',
      '',
      '--REPORT',
      `Content-Type: message/${reportType}`,
      '',
      machinePart,
      '',
      '--REPORT--',
      '',
    ].join('\r\n'),
  );
}

const failed = (status: string, action = 'failed') =>
  [
    'Reporting-MTA: dns; mx.example.com',
    '',
    'Final-Recipient: rfc822; friend@example.com',
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; 550 ${status} <friend@example.com>: User unknown`,
  ].join('\r\n');

describe("bounce mail: what comes back to a delivery's VERP address", () => {
  const friendOf = async (sent: Awaited<ReturnType<typeof sentIssue>>) => {
    const friend = sent.find(({ row }) => row.kind === 'subscriber')?.row;
    if (!friend) throw new Error('no friend delivery');
    return friend;
  };

  it('a permanent failure (RFC 3464) records the bounce and marks the friend bouncing for every owner', async () => {
    const friend = await friendOf(await sentIssue());
    const outcome = await receiveBounceMail(
      bounceDeps(),
      friend.bounceToken,
      reportMail(friend.bounceToken, 'delivery-status', failed('5.1.1')),
    );
    expect(outcome.outcome).toBe('recorded');
    expect(await rowOf(friend.deliveryId)).toMatchObject({ bounceKind: 'bounce' });
    expect((await rowOf(friend.deliveryId))?.bounceDiagnostic).toMatch(/^5\.1\.1 smtp; 550/);
    const [subscriber] = await t.database.db
      .select()
      .from(digestSubscribers)
      .where(eq(digestSubscribers.subscriberId, friend.subscriberId ?? ''));
    expect(subscriber?.status).toBe('bouncing');
    const suppressed = await t.database.db
      .select()
      .from(mailSuppressions)
      .where(eq(mailSuppressions.email, 'friend@example.com'));
    expect(suppressed).toContainEqual(expect.objectContaining({ ownerId: null, reason: 'bounced' }));
  });

  it('a delay (4.x.x, Action: delayed) changes nothing', async () => {
    const friend = await friendOf(await sentIssue());
    const outcome = await receiveBounceMail(
      bounceDeps(),
      friend.bounceToken,
      reportMail(friend.bounceToken, 'delivery-status', failed('4.2.2', 'delayed')),
    );
    expect(outcome).toEqual({ outcome: 'delayed' });
    expect(await rowOf(friend.deliveryId)).toMatchObject({ bounceKind: null, bouncedAt: null });
  });

  it('an abuse report (ARF) unsubscribes the friend from that owner only', async () => {
    const friend = await friendOf(await sentIssue());
    const arf = ['Feedback-Type: abuse', 'User-Agent: ExampleFBL/1.0', 'Version: 1'].join('\r\n');
    const outcome = await receiveBounceMail(
      bounceDeps(),
      friend.bounceToken,
      reportMail(friend.bounceToken, 'feedback-report', arf),
    );
    expect(outcome.outcome).toBe('recorded');
    const [subscriber] = await t.database.db
      .select()
      .from(digestSubscribers)
      .where(eq(digestSubscribers.subscriberId, friend.subscriberId ?? ''));
    expect(subscriber?.status).toBe('unsubscribed');
    const suppressed = await t.database.db
      .select()
      .from(mailSuppressions)
      .where(eq(mailSuppressions.email, 'friend@example.com'));
    expect(suppressed.some((row) => row.reason === 'unsubscribed' && row.ownerId !== null)).toBe(true);
  });

  it('an auto-reply or any other mail to the address is no report and changes nothing', async () => {
    const friend = await friendOf(await sentIssue());
    const reply = Buffer.from(
      [
        'From: friend@example.com',
        `To: digest+b-${friend.bounceToken}@localhost`,
        'Subject: Out of office',
        '',
        'Status: 5.1.1 (quoted in a reply, not a report)',
        '',
      ].join('\r\n'),
    );
    expect(await receiveBounceMail(bounceDeps(), friend.bounceToken, reply)).toEqual({
      outcome: 'not-a-report',
    });
    expect(await rowOf(friend.deliveryId)).toMatchObject({ bounceKind: null });
  });

  it('a report for a token no delivery has is unknown', async () => {
    const token = 'f'.repeat(32);
    const outcome = await receiveBounceMail(
      bounceDeps(),
      token,
      reportMail(token, 'delivery-status', failed('5.1.1')),
    );
    expect(outcome).toEqual({ outcome: 'unknown' });
  });
});

describe('upgrading from the release before bounce tokens (0007)', () => {
  it('gives every stored delivery its own token, keeps every row as it was, and records bounces on them', async () => {
    const old = await createDatabaseAt('0007_released_usernames');
    try {
      const [user] = await old.sql(
        `insert into users (email, method) values ('old@example.com', 'email') returning user_id`,
      );
      const userId = (user as { user_id: string }).user_id;
      const [digest] = await old.sql(
        `insert into digests (user_id, name, sources) values ($1, 'Old Digest', '[]') returning digest_id`,
        [userId],
      );
      const digestId = (digest as { digest_id: string }).digest_id;
      const [build] = await old.sql(
        `insert into digest_builds (digest_id, build_number, html, text) values ($1, 1, '<p>old</p>', 'old') returning build_id`,
        [digestId],
      );
      const buildId = (build as { build_id: string }).build_id;
      const before = [
        ['old@example.com', 'owner', 'sent'],
        ['a@example.com', 'subscriber', 'pending'],
        ['b@example.com', 'subscriber', 'failed'],
      ];
      for (const [recipient, kind, state] of before) {
        await old.sql(
          `insert into deliveries (build_id, digest_id, recipient, kind, state, message_id) values ($1, $2, $3, $4, $5, $6)`,
          [buildId, digestId, recipient, kind, state, `<${recipient}>`],
        );
      }

      await old.upgrade();

      const rows = await old.db.select().from(deliveries).orderBy(deliveries.recipient);
      expect(rows.map((row) => [row.recipient, row.kind, row.state, row.messageId])).toEqual(
        [...before].sort().map(([recipient, kind, state]) => [recipient, kind, state, `<${recipient}>`]),
      );
      for (const row of rows) {
        expect(row.bounceToken).toMatch(/^[0-9a-f]{32}$/);
        expect(row).toMatchObject({ bouncedAt: null, bounceKind: null, bounceDiagnostic: null });
      }
      expect(new Set(rows.map((row) => row.bounceToken)).size).toBe(3);

      const sent = rows.find((row) => row.state === 'sent');
      const outcome = await recordDeliveryBounce(
        { db: old.db, clock },
        { bounceToken: sent?.bounceToken ?? '', kind: 'complaint' },
      );
      expect(outcome).toMatchObject({ outcome: 'recorded', delivery: { recipient: 'old@example.com' } });
    } finally {
      await old.close();
    }
  });
});
