import type { Clock } from '#server/platform/clock';
import type { Authenticate } from '#server/platform/http/auth';
import type { AccessTokens } from './access-tokens';
import { authErrors } from './auth.errors';
import type { SessionCheck } from './session-check';

/**
 * A preHandler for signed-in routes: a valid bearer access token whose session still stands.
 * Checking the session makes logout, reuse detection and password changes take effect at once (in this
 * process; see createSessionCheck for another one).
 */
export function createAuthenticate(deps: {
  clock: Clock;
  accessTokens: AccessTokens;
  sessions: SessionCheck;
}): Authenticate {
  return async (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header) : null;
    if (!match?.[1]) throw authErrors.unauthenticated();
    const claims = await deps.accessTokens.verify(match[1]);
    if (!(await deps.sessions.isActive(claims.sessionId, claims.userId, deps.clock.now()))) {
      throw authErrors.tokenRevoked();
    }
    request.auth = claims;
  };
}
