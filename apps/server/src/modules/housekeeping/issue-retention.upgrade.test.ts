import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';

// Migrating a fresh database twice (up to the old release, then on) takes a while on a busy machine.
const MIGRATING_TIMEOUT_MS = 90_000;

describe('upgrading to issue retention (0009_issue_retention)', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it(
    'gives every existing digest a year, keeps every digest and issue, and refuses other retentions',
    async () => {
      const old = await createDatabaseAt('0007_released_usernames');
      try {
        const [user] = (await old.sql(
          `insert into users (email, method) values ('old@example.com', 'email') returning user_id`,
        )) as {
          user_id: string;
        }[];
        const digestIds: string[] = [];
        for (const [name, active] of [
          ['Morning', true],
          ['Paused', false],
        ] as const) {
          const [row] = (await old.sql(
            `insert into digests (user_id, name, active, schedule_type, time, sources)
           values ($1, $2, $3, 'weekly', '09:15', '[{"type":"DATE"}]') returning digest_id`,
            [user?.user_id, name, active],
          )) as { digest_id: string }[];
          digestIds.push(row?.digest_id ?? '');
        }
        for (const [index, digestId] of digestIds.entries()) {
          await old.sql(
            `insert into digest_builds (digest_id, build_number, html, text, created_at)
           values ($1, 1, '<p>one</p>', 'one', now() - interval '2 years'), ($1, 2, $2, 'two', now())`,
            [digestId, `<p>issue ${index}</p>`],
          );
        }

        await old.upgrade();

        expect(
          await old.sql(
            'select name, active, schedule_type, time, issue_retention_months from digests order by name',
          ),
        ).toEqual([
          {
            name: 'Morning',
            active: true,
            schedule_type: 'weekly',
            time: '09:15',
            issue_retention_months: 12,
          },
          {
            name: 'Paused',
            active: false,
            schedule_type: 'weekly',
            time: '09:15',
            issue_retention_months: 12,
          },
        ]);
        // Nothing is deleted by the upgrade itself: the housekeeping job applies the retention afterwards.
        expect(await old.sql('select build_number, html, text from digest_builds order by html')).toEqual([
          { build_number: 2, html: '<p>issue 0</p>', text: 'two' },
          { build_number: 2, html: '<p>issue 1</p>', text: 'two' },
          { build_number: 1, html: '<p>one</p>', text: 'one' },
          { build_number: 1, html: '<p>one</p>', text: 'one' },
        ]);
        await expect(
          old.sql('update digests set issue_retention_months = 2 where digest_id = $1', [digestIds[0]]),
        ).rejects.toThrow(/digests_issue_retention_months_check/);
      } finally {
        await old.close();
      }
    },
    MIGRATING_TIMEOUT_MS,
  );
});
