import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';

// Upgrading to e-mail verification keeps every account's `confirmed` as it was: accounts confirmed before
// (social, or through a reset link) stay confirmed; unconfirmed e-mail accounts stay unconfirmed and, signed
// in, see the verify-your-address banner and can ask for a link (nothing was ever mailed to prove them).
describe('upgrading to 0013_email_verification', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it('keeps every user and its confirmed flag, with no pending address and no verification link', async () => {
    const old = await createDatabaseAt('0007_released_usernames');
    try {
      await old.sql(
        `insert into users (email, password_hash, method, confirmed) values
           ('unconfirmed@example.com', 'hash', 'email', false),
           ('confirmed@example.com', 'hash', 'email', true),
           ('social@example.com', null, 'google', true)`,
      );
      await old.upgrade();
      expect(
        await old.sql('select email, method, confirmed, pending_email from users order by email'),
      ).toEqual([
        { email: 'confirmed@example.com', method: 'email', confirmed: true, pending_email: null },
        { email: 'social@example.com', method: 'google', confirmed: true, pending_email: null },
        { email: 'unconfirmed@example.com', method: 'email', confirmed: false, pending_email: null },
      ]);
      expect(await old.sql('select count(*)::int as count from email_verifications')).toEqual([{ count: 0 }]);
    } finally {
      await old.close();
    }
  });
});
