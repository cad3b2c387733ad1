import { RECENT_SIGN_IN_MINUTES } from '@digest/contracts';
import type { Database } from '#server/db/client';
import { usersErrors } from '#server/modules/users/users.errors';
import type { UserRow } from '#server/modules/users/users.presenter';
import type { Clock } from '#server/platform/clock';
import type { Authenticated } from '#server/platform/http/auth';
import { findSession } from './auth.repository';
import { verificationErrors } from './email-verification.errors';
import { verifyPassword } from './passwords';

/**
 * Proof that the person holding this session is the account's owner, asked before what protects the
 * account changes (its e-mail, its password, its existence): a stolen access token alone is not enough.
 * An account with a password gives it; a social account has none, so its session must be one started
 * in the last few minutes (a fresh sign-in with the provider).
 */
export async function confirmIdentity(
  deps: { db: Database; clock: Clock },
  auth: Authenticated,
  user: Pick<UserRow, 'passwordHash'>,
  password: string | undefined,
) {
  if (user.passwordHash) {
    if (!password) throw verificationErrors.passwordRequired();
    if (!(await verifyPassword(user.passwordHash, password))) throw usersErrors.wrongPassword();
    return;
  }
  const session = await findSession(deps.db, auth.sessionId);
  const cutoff = deps.clock.now().getTime() - RECENT_SIGN_IN_MINUTES * 60_000;
  if (!session || session.createdAt.getTime() < cutoff) throw verificationErrors.signInAgain();
}
