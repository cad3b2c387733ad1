import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';

const SOURCES = JSON.stringify([{ type: 'HACKER_NEWS', name: '', showHeading: true }]);

describe('upgrading to recorded pauses (0019_catch_up)', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it('a digest paused before gets its last change as the pause, an active one none; old runs stay valid', async () => {
    const old = await createDatabaseAt('0018_source_health');
    try {
      const [user] = (await old.sql(
        `insert into users (email, method, username) values ('ann@example.com', 'email', 'ann') returning user_id`,
      )) as { user_id: string }[];
      const changed = '2026-10-01T08:00:00.000Z';
      const ids: Record<string, string> = {};
      for (const [name, active] of [
        ['Running', true],
        ['Paused', false],
      ] as const) {
        const [row] = (await old.sql(
          `insert into digests (user_id, name, active, sources, updated_at) values ($1, $2, $3, $4::jsonb, $5) returning digest_id`,
          [user?.user_id, name, active, SOURCES, changed],
        )) as { digest_id: string }[];
        ids[name] = row?.digest_id ?? '';
      }
      for (const trigger of ['schedule', 'manual']) {
        await old.sql(
          `insert into issue_runs (digest_id, slot, trigger) values ($1, now() + $2::interval, $3)`,
          [ids.Running, trigger === 'schedule' ? '1 hour' : '2 hours', trigger],
        );
      }

      await old.upgrade();

      const rows = (await old.sql('select name, active, paused_at from digests order by name')) as {
        name: string;
        active: boolean;
        paused_at: Date | string | null;
      }[];
      expect(rows.map((row) => [row.name, row.paused_at && new Date(row.paused_at).toISOString()])).toEqual([
        ['Paused', changed],
        ['Running', null],
      ]);
      const runs = (await old.sql(
        'select trigger, catch_up_since from issue_runs order by trigger',
      )) as unknown[];
      expect(runs).toEqual([
        { trigger: 'manual', catch_up_since: null },
        { trigger: 'schedule', catch_up_since: null },
      ]);
      // A catch-up run needs its window's start, and only a catch-up run has one.
      await expect(
        old.sql(`insert into issue_runs (digest_id, slot, trigger) values ($1, now(), 'catch_up')`, [
          ids.Paused,
        ]),
      ).rejects.toThrow(/issue_runs_catch_up_check/);
      await expect(
        old.sql(`insert into issue_runs (digest_id, slot, catch_up_since) values ($1, now(), now())`, [
          ids.Paused,
        ]),
      ).rejects.toThrow(/issue_runs_catch_up_check/);
    } finally {
      await old.close();
    }
  });
});
