import type { ChangePasswordBody, DeleteAccountBody, ProfilePatch } from '@digest/contracts';
import type { Database } from '#server/db/client';
import { isUniqueViolation } from '#server/db/unique-violation';
import { expireUserPasswordResets, revokeUserSessions } from '#server/modules/auth/auth.repository';
import { hashPassword } from '#server/modules/auth/passwords';
import { confirmIdentity } from '#server/modules/auth/reauthentication';
import type { SessionRevocations } from '#server/modules/auth/session-check';
import { rescheduleOwnerDigests } from '#server/modules/schedule/reschedule';
import type { Clock } from '#server/platform/clock';
import type { Authenticated } from '#server/platform/http/auth';
import { normalisePhoto } from './photo';
import { usersErrors } from './users.errors';
import * as repository from './users.repository';

export interface UsersDeps {
  db: Database;
  clock: Clock;
  /** Told of the sessions a password change or a deletion ends, once it has committed. */
  sessions: SessionRevocations;
}

const USERNAME_INDEX = 'users_username_lower_unique';

async function existingUser(deps: UsersDeps, userId: string) {
  const user = await repository.findUserById(deps.db, userId);
  if (!user) throw usersErrors.accountGone();
  return user;
}

export function getMe(deps: UsersDeps, userId: string) {
  return existingUser(deps, userId);
}

/**
 * Runs in the transaction of the update, after it: another user's change that released `to` and committed
 * while this update waited on the unique index is seen here, and this change rolls back. A name reserved
 * for someone else answers exactly as a taken one, so the answer does not say who had it.
 */
async function moveUsername(
  tx: Database,
  move: { userId: string; from: string | null; to: string; now: Date },
) {
  if (await repository.isUsernameReservedForAnother(tx, move.to, move.userId, move.now)) {
    throw usersErrors.usernameTaken();
  }
  if (move.from?.toLowerCase() === move.to.toLowerCase()) return;
  await repository.dropUsernameReservation(tx, move.to);
  if (move.from) await repository.reserveReleasedUsername(tx, move.from, move.userId, move.now);
}

/** Saves the fields the user changed (docs/product.md §4 Profile edit); only the owner's row is touched. */
export async function updateProfile(deps: UsersDeps, userId: string, patch: ProfilePatch) {
  if (Object.keys(patch).length === 0) throw usersErrors.nothingToChange();
  const user = await existingUser(deps, userId);
  const changes: repository.UserChanges = { updatedAt: deps.clock.now() };

  if (patch.username !== undefined) {
    if (await repository.isUsernameTaken(deps.db, patch.username, userId)) throw usersErrors.usernameTaken();
    changes.username = patch.username;
  }
  if (patch.fullName !== undefined) changes.fullName = patch.fullName;
  if (patch.bio !== undefined) changes.bio = patch.bio === '' ? null : patch.bio;
  if (patch.timezone !== undefined) {
    changes.timezone = patch.timezone.timezone;
    changes.locale = patch.timezone.locale;
    changes.timezoneOffset = patch.timezone.offset;
  }

  try {
    return await deps.db.transaction(async (tx) => {
      const updated = await repository.updateUser(tx, userId, changes);
      if (!updated) throw usersErrors.accountGone();
      if (patch.username !== undefined) {
        await moveUsername(tx, { userId, from: user.username, to: patch.username, now: changes.updatedAt });
      }
      if (changes.timezone && changes.timezone !== user.timezone) {
        await rescheduleOwnerDigests(tx, userId, changes.timezone, changes.updatedAt as Date);
      }
      return updated;
    });
  } catch (error) {
    // Another request took the name or address between the check and the update.
    if (isUniqueViolation(error, USERNAME_INDEX)) throw usersErrors.usernameTaken();
    throw error;
  }
}

/**
 * Changes the password of an e-mail account after checking the current one. Every other session
 * ends (a thief's included) and outstanding reset links stop working; this device stays signed in.
 */
export async function changePassword(deps: UsersDeps, auth: Authenticated, body: ChangePasswordBody) {
  const user = await existingUser(deps, auth.userId);
  if (user.method !== 'email' || !user.passwordHash) throw usersErrors.passwordChangeNotAllowed();
  await confirmIdentity(deps, auth, user, body.oldPassword);
  const passwordHash = await hashPassword(body.newPassword);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const updated = await repository.updateUser(tx, auth.userId, { passwordHash, updatedAt: now });
    if (!updated) throw usersErrors.accountGone();
    await revokeUserSessions(tx, auth.userId, now, auth.sessionId);
    await expireUserPasswordResets(tx, auth.userId, now);
  });
  deps.sessions.forgetUser(auth.userId);
}

/** Checks and re-encodes the upload, then replaces the photo; a bad file changes nothing. */
export async function setPhoto(deps: UsersDeps, userId: string, upload: Buffer) {
  const png = await normalisePhoto(upload);
  const updated = await repository.replaceUserPhoto(deps.db, userId, png, deps.clock.now());
  if (!updated) throw usersErrors.accountGone();
  return updated;
}

export async function removePhoto(deps: UsersDeps, userId: string) {
  const updated = await repository.deleteUserPhoto(deps.db, userId, deps.clock.now());
  if (!updated) throw usersErrors.accountGone();
  return updated;
}

export async function getPhoto(deps: UsersDeps, photoId: string) {
  const png = await repository.findPhotoPng(deps.db, photoId);
  if (!png) throw usersErrors.photoNotFound();
  return png;
}

/**
 * Deletes the account and, through the foreign keys, every row that belongs to it: only with the current
 * password (or, for a social account, a recent sign-in), so a stolen access token cannot.
 */
export async function deleteAccount(deps: UsersDeps, auth: Authenticated, body: DeleteAccountBody) {
  const user = await existingUser(deps, auth.userId);
  await confirmIdentity(deps, auth, user, body.password);
  if (!(await repository.deleteUser(deps.db, auth.userId))) throw usersErrors.accountGone();
  deps.sessions.forgetUser(auth.userId);
}
