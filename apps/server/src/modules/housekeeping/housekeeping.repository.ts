import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oauthStates, passwordResets, refreshTokens, sessions, socialTickets } from '../../db/schema';

/** Rows past their expiry can never be used again: sessions (with their refresh tokens), resets, OAuth states, tickets. */
export async function deleteExpiredTokens(db: Database, now: Date) {
  const expiredSessions = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ id: sessions.sessionId });
  const refresh = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, now))
    .returning({ id: refreshTokens.tokenId });
  const resets = await db
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, now))
    .returning({ id: passwordResets.resetId });
  const states = await db
    .delete(oauthStates)
    .where(lt(oauthStates.expiresAt, now))
    .returning({ id: oauthStates.stateHash });
  const tickets = await db
    .delete(socialTickets)
    .where(lt(socialTickets.expiresAt, now))
    .returning({ id: socialTickets.ticketHash });
  return {
    sessions: expiredSessions.length,
    socialTickets: tickets.length,
    refreshTokens: refresh.length,
    passwordResets: resets.length,
    oauthStates: states.length,
  };
}
