import type { LoginBody, ResetPasswordBody, SignupBody } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { users } from '#server/db/schema';
import { isUniqueViolation } from '#server/db/unique-violation';
import { findUserByEmail, insertUser } from '#server/modules/users/users.repository';
import type { Clock } from '#server/platform/clock';
import { hashToken, randomToken } from '#server/platform/crypto';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import type { AccessTokens } from './access-tokens';
import { authErrors } from './auth.errors';
import * as repository from './auth.repository';
import { sendEmailVerificationJob, sendSignUpAttemptJob } from './email-verification.jobs';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import type { SessionRevocations } from './session-check';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;
/**
 * A refresh token presented again this soon after its first use is the same browser, not a thief: two tabs
 * that refreshed at once (where the web app cannot serialise them), or an answer lost on the way. It gets a
 * token of its own in the same session instead of ending it. The cookie is HttpOnly and SameSite=Strict, so
 * a copy in other hands this fast is not the threat reuse detection is for.
 */
export const REFRESH_REUSE_GRACE_MS = 10 * 1000;

export interface AuthDeps {
  db: Database;
  clock: Clock;
  accessTokens: AccessTokens;
  /** Told of every session a use case ends, once the change has committed. */
  sessions: SessionRevocations;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
}

const later = (clock: Clock, ms: number) => new Date(clock.now().getTime() + ms);

async function issueRefreshToken(deps: AuthDeps, userId: string, sessionId: string) {
  const refreshToken = randomToken();
  const expiresAt = later(deps.clock, REFRESH_TOKEN_TTL_MS);
  await repository.insertRefreshToken(deps.db, {
    userId,
    familyId: sessionId,
    tokenHash: hashToken(refreshToken),
    expiresAt,
  });
  return { refreshToken, expiresAt };
}

/** A new session (one device) with its first token pair. */
export async function startSession(deps: AuthDeps, userId: string): Promise<IssuedTokens> {
  const session = await repository.insertSession(deps.db, {
    userId,
    expiresAt: later(deps.clock, REFRESH_TOKEN_TTL_MS),
  });
  const { refreshToken } = await issueRefreshToken(deps, userId, session.sessionId);
  const accessToken = await deps.accessTokens.issue({ userId, sessionId: session.sessionId });
  return { accessToken, refreshToken };
}

/**
 * Creates the account unconfirmed and mails its verification link; for an address that already has an
 * account, mails its owner instead (docs/decisions/0004-sign-up-answers-the-same.md). Both ways hash the
 * password, try one insert and queue one job, so neither the answer nor its time tells them apart.
 */
export async function signUp(deps: AuthDeps & { jobs: Pick<JobQueue, 'send'> }, body: SignupBody) {
  const passwordHash = await hashPassword(body.password);
  try {
    const user = await insertUser(deps.db, { email: body.email, passwordHash, method: 'email' });
    await deps.jobs.send(sendEmailVerificationJob, { userId: user.userId, purpose: 'sign-up' });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await deps.jobs.send(sendSignUpAttemptJob, { email: body.email });
  }
}

export async function signIn(deps: AuthDeps, body: LoginBody) {
  const user = await findUserByEmail(deps.db, body.email);
  const valid = user?.passwordHash
    ? await verifyPassword(user.passwordHash, body.password)
    : await verifyAgainstNothing(body.password);
  if (!user || !valid) throw authErrors.invalidCredentials();
  return { user, token: await startSession(deps, user.userId) };
}

/**
 * Rotates a refresh token. A token presented a second time means it was copied: the whole family
 * (the session) is revoked, so both the thief and the owner must log in again.
 */
export async function refresh(deps: AuthDeps, refreshToken: string) {
  const now = deps.clock.now();
  const row = await repository.findRefreshToken(deps.db, hashToken(refreshToken));
  if (!row) throw authErrors.invalidToken();
  const session = await repository.findSession(deps.db, row.familyId);
  if (!session || session.revokedAt || row.revokedAt) throw authErrors.tokenRevoked();
  if (row.expiresAt <= now || session.expiresAt <= now) throw authErrors.tokenExpired();
  const firstUse = !row.usedAt && (await repository.markRefreshTokenUsed(deps.db, row.tokenId, now));
  if (!firstUse) {
    const usedAt = row.usedAt ?? (await repository.findRefreshToken(deps.db, row.tokenHash))?.usedAt;
    if (!usedAt || now.getTime() - usedAt.getTime() > REFRESH_REUSE_GRACE_MS) {
      await repository.revokeSession(deps.db, session.sessionId, now);
      deps.sessions.forgetSession(session.sessionId);
      throw authErrors.tokenRevoked();
    }
  }
  const next = await issueRefreshToken(deps, row.userId, session.sessionId);
  await repository.extendSession(deps.db, session.sessionId, next.expiresAt);
  const accessToken = await deps.accessTokens.issue({ userId: row.userId, sessionId: session.sessionId });
  const [user] = await deps.db.select().from(users).where(eq(users.userId, row.userId));
  if (!user) throw authErrors.tokenRevoked();
  return { user, token: { accessToken, refreshToken: next.refreshToken } };
}

export async function logout(deps: AuthDeps, sessionId: string) {
  await repository.revokeSession(deps.db, sessionId, deps.clock.now());
  deps.sessions.forgetSession(sessionId);
}

/** A single-use reset token for the user with this e-mail, or undefined when there is none. */
export async function createPasswordReset(deps: AuthDeps, email: string) {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return undefined;
  const recoveryToken = randomToken();
  await repository.insertPasswordReset(deps.db, {
    userId: user.userId,
    tokenHash: hashToken(recoveryToken),
    expiresAt: later(deps.clock, PASSWORD_RESET_TTL_MS),
  });
  return { user, recoveryToken };
}

/** Sets a new password from a reset link; every session of the account ends. */
export async function resetPassword(deps: AuthDeps, body: ResetPasswordBody) {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(body.password);
  const userId = await deps.db.transaction(async (tx) => {
    const userId = await repository.consumePasswordReset(tx, hashToken(body.recoveryToken), now);
    if (!userId) throw authErrors.invalidRecoveryToken();
    // Following the link proved the mailbox is theirs.
    await tx
      .update(users)
      .set({ passwordHash, confirmed: true, updatedAt: now })
      .where(eq(users.userId, userId));
    await repository.expireUserPasswordResets(tx, userId, now);
    await repository.revokeUserSessions(tx, userId, now);
    return userId;
  });
  deps.sessions.forgetUser(userId);
}
