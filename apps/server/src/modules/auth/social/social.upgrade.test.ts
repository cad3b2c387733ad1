import { describe, expect, it } from 'vitest';
import { createDatabaseAt } from '#server-test/upgrade-database';

describe('upgrading to browser-bound social sign-ins (0011_session_binding)', () => {
  it('drops the tickets issued unbound, keeps the flows under way (refused at their callback) and every session', async () => {
    const old = await createDatabaseAt('0007_released_usernames');
    try {
      const [user] = (await old.sql(
        `insert into users (email, method) values ('old@example.com', 'google') returning user_id`,
      )) as { user_id: string }[];
      const userId = user?.user_id;
      const soon = new Date(Date.now() + 60_000);
      await old.sql(
        `insert into social_tickets (ticket_hash, user_id, provider, is_new_user, expires_at)
         values ('old-ticket', $1, 'google', false, $2)`,
        [userId, soon],
      );
      await old.sql(
        `insert into oauth_states (state_hash, provider, purpose, code_verifier, expires_at)
         values ('old-state', 'google', 'signin', 'verifier', $1)`,
        [soon],
      );
      await old.sql(`insert into sessions (user_id, expires_at) values ($1, $2)`, [userId, soon]);

      await old.upgrade();

      // A ticket without a binding could be redeemed in any browser: it goes (it had two minutes at most).
      expect(await old.sql('select ticket_hash from social_tickets')).toEqual([]);
      // A flow under way survives; having no binding, its callback refuses it ('expired or already used').
      expect(await old.sql('select state_hash, browser_binding_hash from oauth_states')).toEqual([
        { state_hash: 'old-state', browser_binding_hash: null },
      ]);
      expect(await old.sql('select user_id from sessions')).toEqual([{ user_id: userId }]);
      await expect(
        old.sql(
          `insert into social_tickets (ticket_hash, user_id, provider, is_new_user, expires_at)
           values ('unbound', $1, 'google', false, $2)`,
          [userId, soon],
        ),
      ).rejects.toThrow(/browser_binding_hash/);
    } finally {
      await old.close();
    }
  });
});
