import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';

const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

describe('upgrading to double opt-in keeps every friend as they were', {
  timeout: UPGRADE_TEST_TIMEOUT_MS,
}, () => {
  it('active friends stay subscribed, those who left stay unsubscribed and suppressed for that owner only, held deliveries become possible', async () => {
    const old = await createDatabaseAt('0007_released_usernames');
    try {
      const [owner] = await old.sql(
        `insert into users (email, method, confirmed) values ('owner@example.com', 'email', true) returning user_id`,
      );
      const [other] = await old.sql(
        `insert into users (email, method) values ('other@example.com', 'email') returning user_id`,
      );
      const ownerId = (owner as { user_id: string }).user_id;
      const otherId = (other as { user_id: string }).user_id;
      const digestOf = async (userId: string) =>
        (
          (
            await old.sql(
              `insert into digests (user_id, name, sources) values ($1, 'Old', '[]') returning digest_id`,
              [userId],
            )
          )[0] as { digest_id: string }
        ).digest_id;
      const [first, second, theirs] = [
        await digestOf(ownerId),
        await digestOf(ownerId),
        await digestOf(otherId),
      ];
      const left = '2026-01-02T03:04:05.000Z';
      const rows: [string, string, string | null, string | null][] = [
        [first, 'reader@example.com', null, null],
        [first, 'leaver@example.com', left, null],
        [second, 'leaver@example.com', '2026-02-01T00:00:00.000Z', null],
        [first, 'removed@example.com', null, left],
        [theirs, 'leaver@example.com', null, null],
      ];
      for (const [digestId, email, unsubscribedAt, removedAt] of rows) {
        await old.sql(
          `insert into digest_subscribers (digest_id, email, token, unsubscribed_at, removed_at, notified_at)
           values ($1, $2, md5(random()::text), $3, $4, now())`,
          [digestId, email, unsubscribedAt, removedAt],
        );
      }

      await old.upgrade();

      const after = await old.sql(
        `select d.user_id, s.email, s.status, s.unsubscribed_at, s.removed_at is not null as removed
         from digest_subscribers s join digests d using (digest_id) order by s.email, d.user_id, s.unsubscribed_at`,
      );
      expect(after).toHaveLength(rows.length);
      expect(
        after
          .map((row) => {
            const r = row as { user_id: string; email: string; status: string; removed: boolean };
            return [r.user_id === ownerId ? 'owner' : 'other', r.email, r.status, r.removed];
          })
          .sort(byText),
      ).toEqual(
        [
          ['owner', 'leaver@example.com', 'unsubscribed', false],
          ['owner', 'leaver@example.com', 'unsubscribed', false],
          ['other', 'leaver@example.com', 'subscribed', false],
          ['owner', 'reader@example.com', 'subscribed', false],
          ['owner', 'removed@example.com', 'subscribed', true],
        ].sort(byText),
      );
      const suppressions = await old.sql(`select email, owner_id, reason, created_at from mail_suppressions`);
      expect(suppressions).toHaveLength(1);
      expect(suppressions[0]).toMatchObject({
        email: 'leaver@example.com',
        owner_id: ownerId,
        reason: 'unsubscribed',
      });
      expect(new Date((suppressions[0] as { created_at: string }).created_at).toISOString()).toBe(left);
      // The new delivery state is accepted by the upgraded table.
      await old.sql(
        `insert into digest_builds (digest_id, build_number, html, text) values ($1, 1, '<p>x</p>', 'x')`,
        [first],
      );
      await old.sql(
        `insert into deliveries (build_id, digest_id, recipient, kind, state, message_id)
         select build_id, digest_id, 'owner@example.com', 'owner', 'held', '<x@test>' from digest_builds`,
      );
      expect(await old.sql(`select state from deliveries`)).toEqual([{ state: 'held' }]);
    } finally {
      await old.close();
    }
  });
});
