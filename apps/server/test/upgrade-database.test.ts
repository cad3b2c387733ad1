import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from './upgrade-database';

describe('createDatabaseAt', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it('stops at the named migration, and upgrade() applies the rest keeping the rows written before', async () => {
    const old = await createDatabaseAt('0006_issues');
    try {
      const tables = async () =>
        (await old.sql(`select table_name from information_schema.tables where table_schema = 'public'`)).map(
          (row) => (row as { table_name: string }).table_name,
        );
      expect(await tables()).not.toContain('released_usernames');
      await old.sql(`insert into users (email, method) values ($1, 'email')`, ['old@example.com']);
      await old.upgrade();
      expect(await tables()).toContain('released_usernames');
      expect(await old.sql('select email from users')).toEqual([{ email: 'old@example.com' }]);
    } finally {
      await old.close();
    }
  });

  it('refuses a tag that no migration has', async () => {
    await expect(createDatabaseAt('9999_nothing')).rejects.toThrow('No migration is tagged 9999_nothing');
  });
});
