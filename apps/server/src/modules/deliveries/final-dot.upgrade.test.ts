import { describe, expect, it } from 'vitest';
import type { Database } from '#server/db/client';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';
import { type DeliveryDeps, deliver, settleStuckDeliveries } from './deliveries.usecases';

// Migrating a fresh database twice (up to the old release, then on) takes a while on a busy machine.
const MIGRATING_TIMEOUT_MS = 90_000;

/** The new code's delivery path on the upgraded database, with a mailer that must never be used. */
function newRelease(db: Database, queued: string[]): DeliveryDeps {
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  return {
    db,
    clock: { now: () => new Date() },
    logger: silent as unknown as DeliveryDeps['logger'],
    appUrl: 'http://app.test',
    legal: { termsUrl: 'http://app.test/terms', privacyUrl: 'http://app.test/privacy' },
    queue: {
      sendMany: async (_job, items) => {
        queued.push(...items.map((item) => (item.payload as { deliveryId: string }).deliveryId));
      },
      send: async (_job, payload) => {
        queued.push((payload as { deliveryId: string }).deliveryId);
        return null;
      },
    },
    mailer: {
      transport: 'smtp',
      waitForConnection: async () => () => {},
      send: () => Promise.reject(new Error('a row the old release may have sent was sent again')),
      close: async () => {},
    },
  };
}

// Rows the old release left `sending` were claimed before anyone marked a final dot: the server may have
// taken their message, so the new release lists them as uncertain and never sends them again.
describe('upgrading to the final-dot mark (0015_final_dot)', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it(
    'treats every row the old release left sending as maybe sent, and keeps the others as they were',
    async () => {
      const old = await createDatabaseAt('0014_newsletters');
      try {
        const [user] = (await old.sql(
          `insert into users (email, method, confirmed) values ('old@example.com', 'email', true) returning user_id`,
        )) as { user_id: string }[];
        const [digest] = (await old.sql(
          `insert into digests (user_id, name, active, schedule_type, time, sources)
           values ($1, 'Morning', true, 'daily', '09:15', '[{"type":"DATE"}]') returning digest_id`,
          [user?.user_id],
        )) as { digest_id: string }[];
        const [build] = (await old.sql(
          `insert into digest_builds (digest_id, build_number, html, text)
           values ($1, 1, '<p>one</p>', 'one') returning build_id`,
          [digest?.digest_id],
        )) as { build_id: string }[];
        const rows = (await old.sql(
          `insert into deliveries (build_id, digest_id, recipient, kind, state, attempts, message_id, sending_at)
           values ($1, $2, 'a@example.com', 'owner', 'sending', 1, '<a@digest.test>', now()),
                  ($1, $2, 'b@example.com', 'owner', 'sending', 1, '<b@digest.test>', now() - interval '2 hours'),
                  ($1, $2, 'c@example.com', 'owner', 'sent', 1, '<c@digest.test>', now() - interval '1 day')
           returning delivery_id, recipient`,
          [build?.build_id, digest?.digest_id],
        )) as { delivery_id: string; recipient: string }[];

        await old.upgrade();

        expect(
          await old.sql('select recipient, state, before_final_dot from deliveries order by recipient'),
        ).toEqual([
          { recipient: 'a@example.com', state: 'sending', before_final_dot: false },
          { recipient: 'b@example.com', state: 'sending', before_final_dot: false },
          { recipient: 'c@example.com', state: 'sent', before_final_dot: false },
        ]);
        const queued: string[] = [];
        const deps = newRelease(old.db, queued);
        // The retry of a's job, and the sweep finding b an hour later; c is sent and stays so.
        await deliver(deps, rows[0]?.delivery_id as string);
        await settleStuckDeliveries(deps);
        await deliver(deps, rows[2]?.delivery_id as string);
        expect(await old.sql('select recipient, state from deliveries order by recipient')).toEqual([
          { recipient: 'a@example.com', state: 'uncertain' },
          { recipient: 'b@example.com', state: 'uncertain' },
          { recipient: 'c@example.com', state: 'sent' },
        ]);
        expect(queued).toEqual([]);
      } finally {
        await old.close();
      }
    },
    MIGRATING_TIMEOUT_MS,
  );
});
