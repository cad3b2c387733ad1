import type { Database } from '#server/db/client';
import { findActiveSessionExpiry } from './auth.repository';

/** What a use case that ends sessions tells this process once its change has committed. */
export interface SessionRevocations {
  forgetSession(sessionId: string): void;
  forgetUser(userId: string): void;
}

export interface SessionCheck extends SessionRevocations {
  /** True while the session stands (not revoked, not expired, the user's own). */
  isActive(sessionId: string, userId: string, now: Date): Promise<boolean>;
}

/** Sessions remembered at most; past it the memory starts again empty (each entry is a few hundred bytes). */
const MAX_ENTRIES = 10_000;

/**
 * Every signed-in request asks whether its session still stands. The answer "it does" is remembered for
 * `ttlMs` (SESSION_CHECK_CACHE_MS), so a busy client costs one query per `ttlMs` instead of one per request.
 *
 * What it trades away, and what it keeps:
 * - In this process a revocation takes effect at once: the use cases that end sessions (sign-out, password
 *   change or reset, refresh-token reuse, a verified address, a claimed account, a deleted account) call
 *   `forgetSession`/`forgetUser` after their change commits; a check that read the database before the
 *   commit and answers after it is not remembered (the generation below).
 * - In another API process on the same PostgreSQL, a revoked session is still let in for at most `ttlMs`.
 * - An expired session is refused at its expiry: the row's expiry is remembered with the answer.
 * - A refusal is never remembered, so a session is never refused from memory.
 */
export function createSessionCheck(deps: { db: Database; ttlMs: number }): SessionCheck {
  const known = new Map<string, { userId: string; expiresAt: number; checkedAt: number }>();
  // Bumped by every forget: a database answer read before it is not kept after it.
  let generation = 0;
  return {
    async isActive(sessionId, userId, now) {
      const at = now.getTime();
      const entry = known.get(sessionId);
      if (entry && entry.userId === userId && at < entry.expiresAt && at - entry.checkedAt < deps.ttlMs) {
        return true;
      }
      const asked = generation;
      const expiresAt = await findActiveSessionExpiry(deps.db, sessionId, userId, now);
      if (expiresAt === undefined) {
        known.delete(sessionId);
        return false;
      }
      if (deps.ttlMs > 0 && asked === generation) {
        if (known.size >= MAX_ENTRIES) known.clear();
        known.set(sessionId, { userId, expiresAt: expiresAt.getTime(), checkedAt: at });
      }
      return true;
    },
    forgetSession(sessionId) {
      generation++;
      known.delete(sessionId);
    },
    forgetUser(userId) {
      generation++;
      for (const [sessionId, entry] of known) if (entry.userId === userId) known.delete(sessionId);
    },
  };
}
