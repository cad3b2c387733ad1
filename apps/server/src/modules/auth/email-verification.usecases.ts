import type { ChangeEmailBody } from '@digest/contracts';
import type { Database } from '#server/db/client';
import { isUniqueViolation } from '#server/db/unique-violation';
import { usersErrors } from '#server/modules/users/users.errors';
import * as users from '#server/modules/users/users.repository';
import { normaliseEmail } from '#server/modules/users/users.rules';
import type { Clock } from '#server/platform/clock';
import { hashToken } from '#server/platform/crypto';
import type { Authenticated } from '#server/platform/http/auth';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import { expireUserPasswordResets, revokeUserSessions } from './auth.repository';
import { type AuthDeps, startSession } from './auth.usecases';
import { verificationErrors } from './email-verification.errors';
import { sendEmailVerificationJob } from './email-verification.jobs';
import * as repository from './email-verification.repository';
import { confirmIdentity } from './reauthentication';

export interface VerifyEmailDeps extends AuthDeps {
  /** Called once an address is proven the owner's: mail that waited for it may go now. */
  onAddressVerified(userId: string): Promise<void>;
}

interface AccountChangeDeps {
  db: Database;
  clock: Clock;
  jobs: Pick<JobQueue, 'send'>;
}

async function existingUser(db: Database, userId: string) {
  const user = await users.findUserById(db, userId);
  if (!user) throw usersErrors.accountGone();
  return user;
}

/**
 * Follows a verification link: the account's address is confirmed (sessions started before then end), or
 * its pending address becomes its address (every session but the one that asked for the change ends, and
 * reset links sent to the old address stop working). The link then signs its holder in, as a sign-in does.
 */
export async function verifyEmail(deps: VerifyEmailDeps, token: string) {
  const now = deps.clock.now();
  const verified = await deps.db
    .transaction(async (tx) => {
      const row = await repository.consumeEmailVerification(tx, hashToken(token), now);
      const user = row && (await users.findUserById(tx, row.userId));
      if (!row || !user) throw verificationErrors.invalidLink();
      if (row.purpose === 'sign-up') {
        // A link to an address the account no longer has proves nothing about the account.
        if (row.email !== user.email) throw verificationErrors.invalidLink();
        // Sessions started with the password before the mailbox was proven may be those of whoever
        // registered the address first (as when a social sign-in claims such an account): they end.
        if (!user.confirmed) await revokeUserSessions(tx, user.userId, now);
        return users.updateUser(tx, user.userId, { confirmed: true, updatedAt: now });
      }
      // Cancelled, or replaced by a newer address.
      if (row.email !== user.pendingEmail) throw verificationErrors.invalidLink();
      if (await users.isEmailTaken(tx, row.email, user.userId)) throw verificationErrors.addressTaken();
      const updated = await users.updateUser(tx, user.userId, {
        email: row.email,
        pendingEmail: null,
        confirmed: true,
        updatedAt: now,
      });
      await revokeUserSessions(tx, user.userId, now, row.sessionId ?? undefined);
      await expireUserPasswordResets(tx, user.userId, now);
      return updated;
    })
    .catch((error: unknown) => {
      // Another account took the address between the check and the update.
      if (isUniqueViolation(error, 'users_email_unique')) throw verificationErrors.addressTaken();
      throw error;
    });
  if (!verified) throw verificationErrors.invalidLink();
  // Sessions started before the proof, or every other one after an address change, have ended.
  deps.sessions.forgetUser(verified.userId);
  await deps.onAddressVerified(verified.userId);
  return { user: verified, token: await startSession(deps, verified.userId) };
}

/** Mails a new link: to the pending new address when there is one, else to the unconfirmed address. */
export async function resendVerification(deps: AccountChangeDeps, auth: Authenticated) {
  const user = await existingUser(deps.db, auth.userId);
  if (user.pendingEmail) {
    await deps.jobs.send(sendEmailVerificationJob, {
      userId: user.userId,
      purpose: 'email-change',
      sessionId: auth.sessionId,
    });
    return user.pendingEmail;
  }
  if (user.confirmed) throw verificationErrors.alreadyVerified();
  await deps.jobs.send(sendEmailVerificationJob, { userId: user.userId, purpose: 'sign-up' });
  return user.email;
}

/**
 * Asks for a new address (with the current password): it is stored as pending and takes effect only when
 * the link mailed to it is followed; the current address is told, so an owner who did not ask hears of it.
 */
export async function requestEmailChange(
  deps: AccountChangeDeps,
  auth: Authenticated,
  body: ChangeEmailBody,
) {
  const user = await existingUser(deps.db, auth.userId);
  // docs/product.md §6: only accounts that sign in with a password own their e-mail; for the others it is the
  // provider's, and social sign-in matches accounts by it.
  if (user.method !== 'email') throw usersErrors.emailChangeNotAllowed();
  await confirmIdentity(deps, auth, user, body.password);
  const email = normaliseEmail(body.email);
  const now = deps.clock.now();
  if (email === user.email) {
    // Asking for the address the account has is taking back a pending change.
    return (await users.updateUser(deps.db, user.userId, { pendingEmail: null, updatedAt: now })) ?? user;
  }
  if (await users.isEmailTaken(deps.db, email, user.userId)) throw usersErrors.emailTaken();
  const updated = await users.updateUser(deps.db, user.userId, { pendingEmail: email, updatedAt: now });
  if (!updated) throw usersErrors.accountGone();
  await deps.jobs.send(sendEmailVerificationJob, {
    userId: user.userId,
    purpose: 'email-change',
    sessionId: auth.sessionId,
    tellAddress: user.email,
  });
  return updated;
}

/** Drops the pending address: links already mailed to it stop working. */
export async function cancelEmailChange(deps: AccountChangeDeps, auth: Authenticated) {
  const updated = await users.updateUser(deps.db, auth.userId, {
    pendingEmail: null,
    updatedAt: deps.clock.now(),
  });
  if (!updated) throw usersErrors.accountGone();
  return updated;
}
