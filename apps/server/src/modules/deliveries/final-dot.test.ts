import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digestBuilds } from '#server/db/schema';
import { createDigest, THREE_SOURCES } from '#server/modules/digests/test-support';
import { signUp } from '#server/modules/users/test-support';
import { createMailer, type Mailer, type SendOptions } from '#server/platform/mailer';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import {
  type DeliveryDeps,
  deliver,
  MAX_STUCK_ATTEMPTS,
  STUCK_SENDING_MS,
  settleStuckDeliveries,
} from './deliveries.usecases';

// A worker killed mid-send, played with a real SMTP server on 127.0.0.1: a second mailer stands for the
// worker that dies (its send never returns, like a process that is gone), the app's own for the one that
// takes the job over after the heartbeat.

let smtp: TestSmtpServer;
/** While set, runs before the SMTP server answers a message's final dot. */
let beforeAnswer: (() => void) | undefined;
let t: TestApi;
const dyingMailers: Mailer[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer({ beforeAnswer: async () => beforeAnswer?.() });
  t = await startTestApi({ smtp, appUrl: 'http://app.test', mailDomain: 'digest.test' });
});
afterAll(async () => {
  await Promise.all(dyingMailers.map((mailer) => mailer.close()));
  await t?.close();
  await closeSmtpServers();
});

const deliveryDeps = () => t.modules.deliveryDeps;
const never = new Promise<never>(() => {});

/** A pending delivery of a stored issue to its owner. */
async function pendingDelivery() {
  const owner = await signUp(t);
  const digest = await createDigest(t.app, owner, { sources: THREE_SOURCES });
  const [build] = await t.database.db
    .insert(digestBuilds)
    .values({ digestId: digest.digestId, buildNumber: 1, html: '<p>Issue one</p>', text: 'Issue one' })
    .returning();
  const deliveryId = crypto.randomUUID();
  const [row] = await t.database.db
    .insert(deliveries)
    .values({
      deliveryId,
      buildId: build?.buildId as string,
      digestId: digest.digestId,
      recipient: owner.email,
      kind: 'owner',
      messageId: `<${deliveryId}@digest.test>`,
    })
    .returning();
  if (!row) throw new Error('no delivery');
  return row;
}

const rowOf = async (deliveryId: string) =>
  (await t.database.db.select().from(deliveries).where(eq(deliveries.deliveryId, deliveryId)))[0];
const received = (messageId: string) => smtp.received.filter((mail) => mail.parsed.messageId === messageId);

/**
 * The deps of a worker that dies inside `send`: `dieAt` runs with the real send's options and answers when
 * the worker dies; from then on nothing of that attempt runs again (its `deliver` never returns).
 */
function dyingWorker(
  dieAt: (send: (options: SendOptions) => Promise<unknown>, options: SendOptions) => void,
) {
  const mailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    outboxDir: '/nonexistent',
    from: 'Digest <digest@localhost>',
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
  dyingMailers.push(mailer);
  const deps: DeliveryDeps = {
    ...deliveryDeps(),
    mailer: {
      ...mailer,
      send: (mail, options = {}) => {
        dieAt((sendOptions) => mailer.send(mail, sendOptions).catch(() => undefined), options);
        return never;
      },
    },
  };
  return deps;
}

describe('a worker killed while sending a delivery', () => {
  it('before the final dot: the server discards the message, and the retry sends it once', async () => {
    const row = await pendingDelivery();
    let killed!: () => void;
    const died = new Promise<void>((resolve) => {
      killed = resolve;
    });
    const dying = dyingWorker((send) => {
      void send({
        // Everything but the final dot is on the wire when the process dies, its connection with it.
        beforeFinalDot: () => {
          smtp.dropConnections();
          killed();
          return never;
        },
      });
    });

    void deliver(dying, row.deliveryId);
    await died;
    expect(await rowOf(row.deliveryId)).toMatchObject({
      state: 'sending',
      beforeFinalDot: true,
      attempts: 1,
    });

    await deliver(deliveryDeps(), row.deliveryId);

    expect(received(row.messageId)).toHaveLength(1);
    expect(await rowOf(row.deliveryId)).toMatchObject({ state: 'sent', beforeFinalDot: false, attempts: 2 });
  });

  it('after the final dot: the row becomes uncertain and is never sent again', async () => {
    const row = await pendingDelivery();
    let killed!: () => void;
    const died = new Promise<void>((resolve) => {
      killed = resolve;
    });
    // The message is accepted; the worker dies before it records `sent`.
    const dying = dyingWorker((send, options) => void send(options).then(killed));

    void deliver(dying, row.deliveryId);
    await died;
    expect(received(row.messageId)).toHaveLength(1);
    expect(await rowOf(row.deliveryId)).toMatchObject({ state: 'sending', beforeFinalDot: false });

    await deliver(deliveryDeps(), row.deliveryId);

    expect(received(row.messageId)).toHaveLength(1);
    expect(await rowOf(row.deliveryId)).toMatchObject({ state: 'uncertain' });
    expect((await rowOf(row.deliveryId))?.lastError).toMatch(/may or may not have accepted it/);
  });

  it('a connection lost between the final dot and the answer: uncertain, never sent again', async () => {
    const row = await pendingDelivery();
    beforeAnswer = () => smtp.dropConnections();
    try {
      await deliver(deliveryDeps(), row.deliveryId, { id: 'j', retryCount: 0, retryLimit: 8 });
    } finally {
      beforeAnswer = undefined;
    }

    expect(await rowOf(row.deliveryId)).toMatchObject({ state: 'uncertain', attempts: 1 });
    expect((await rowOf(row.deliveryId))?.lastError).toMatch(/lost after the end of this mail/);
    // The job's retry finds nothing to send: no second claim, no second copy.
    await deliver(deliveryDeps(), row.deliveryId);
    expect(await rowOf(row.deliveryId)).toMatchObject({ state: 'uncertain', attempts: 1 });
  });

  it('an attempt whose claim a newer one took over stops before the final dot: the mail arrives once', async () => {
    const row = await pendingDelivery();
    // The first attempt stalls before its final dot while the job is run again (an expired heartbeat).
    const stalled: DeliveryDeps = {
      ...deliveryDeps(),
      mailer: {
        ...deliveryDeps().mailer,
        send: (mail, options = {}) =>
          deliveryDeps().mailer.send(mail, {
            beforeFinalDot: async () => {
              await deliver(deliveryDeps(), row.deliveryId);
              await options.beforeFinalDot?.();
            },
          }),
      },
    };

    await deliver(stalled, row.deliveryId);

    expect(received(row.messageId)).toHaveLength(1);
    expect(await rowOf(row.deliveryId)).toMatchObject({ state: 'sent', attempts: 2 });
  });
});

describe('the stuck sweep', () => {
  it('queues again a delivery stuck before its final dot, and lists one stuck after it as uncertain', async () => {
    const [before, after] = [await pendingDelivery(), await pendingDelivery()];
    const longAgo = new Date(Date.now() - STUCK_SENDING_MS - 1000);
    for (const [row, beforeFinalDot] of [
      [before, true],
      [after, false],
    ] as const) {
      await t.database.db
        .update(deliveries)
        .set({ state: 'sending', beforeFinalDot, sendingAt: longAgo })
        .where(eq(deliveries.deliveryId, row.deliveryId));
    }

    expect(await settleStuckDeliveries(deliveryDeps())).toBeGreaterThanOrEqual(2);

    expect(await rowOf(before.deliveryId)).toMatchObject({ state: 'pending' });
    expect(await rowOf(after.deliveryId)).toMatchObject({ state: 'uncertain' });
    const jobs = await t.database.db.execute(
      sql`select 1 from pgboss.job where name = 'issues.deliver' and data->>'deliveryId' = ${before.deliveryId}`,
    );
    expect((jobs as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    await deliver(deliveryDeps(), before.deliveryId);
    expect(received(before.messageId)).toHaveLength(1);
  });

  it(`stops queueing a delivery that stopped its sender ${MAX_STUCK_ATTEMPTS} times: failed, not delivered`, async () => {
    const [worn, fresh] = [await pendingDelivery(), await pendingDelivery()];
    const longAgo = new Date(Date.now() - STUCK_SENDING_MS - 1000);
    for (const [row, attempts] of [
      [worn, MAX_STUCK_ATTEMPTS],
      [fresh, MAX_STUCK_ATTEMPTS - 1],
    ] as const) {
      await t.database.db
        .update(deliveries)
        .set({ state: 'sending', beforeFinalDot: true, sendingAt: longAgo, attempts })
        .where(eq(deliveries.deliveryId, row.deliveryId));
    }

    await settleStuckDeliveries(deliveryDeps());

    expect(await rowOf(worn.deliveryId)).toMatchObject({
      state: 'failed',
      beforeFinalDot: false,
      lastError: expect.stringContaining('it was not delivered'),
    });
    expect(await rowOf(fresh.deliveryId)).toMatchObject({ state: 'pending' });
    const jobs = await t.database.db.execute(
      sql`select data->>'deliveryId' as id from pgboss.job where name = 'issues.deliver'
          and data->>'deliveryId' in (${worn.deliveryId}, ${fresh.deliveryId})`,
    );
    expect((jobs as unknown as { rows: { id: string }[] }).rows.map((job) => job.id)).toEqual([
      fresh.deliveryId,
    ]);
    await deliver(deliveryDeps(), worn.deliveryId);
    expect(received(worn.messageId)).toHaveLength(0);
  });
});
