import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '#server/platform/clock';
import { authErrors } from './auth.errors';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'digest';
const AUDIENCE = 'digest-api';

/** Verified tokens remembered at most; past it the memory starts again empty. */
const MAX_VERIFIED = 10_000;

export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
}

export interface AccessTokens {
  issue(claims: AccessTokenClaims): Promise<string>;
  /** Throws a 401 AppError for a missing, malformed, tampered, foreign or expired token. */
  verify(token: string): Promise<AccessTokenClaims>;
}

/** Short-lived HS256 JWTs; only HS256 is accepted, so `alg: none` and key-confusion tokens are refused. */
export function createAccessTokens(key: Uint8Array, clock: Clock): AccessTokens {
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  // Tokens whose signature and claims were checked, with their expiry: every signed-in request presents one,
  // and the HMAC check (a WebCrypto job) was a fifth of an empty answer's CPU. Only valid tokens are kept.
  const verified = new Map<string, { claims: AccessTokenClaims; exp: number }>();
  // Imported once: given the raw bytes, jose imports the key again for every token it signs or verifies,
  // which cost more than the signature itself on every signed-in request.
  const hmacKey = crypto.subtle.importKey(
    'raw',
    new Uint8Array(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    async issue({ userId, sessionId }) {
      const now = nowSeconds();
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
        .sign(await hmacKey);
    },
    async verify(token) {
      // A token verified before is the same string with the same signature: only its expiry can change.
      const known = verified.get(token);
      if (known) {
        if (known.exp <= nowSeconds()) throw authErrors.tokenExpired();
        return known.claims;
      }
      try {
        const { payload } = await jwtVerify(token, await hmacKey, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: clock.now(),
          requiredClaims: ['sub', 'exp', 'sid'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || payload.exp === undefined)
          throw authErrors.invalidToken();
        const claims = { userId: payload.sub, sessionId: payload.sid };
        if (verified.size >= MAX_VERIFIED) verified.clear();
        verified.set(token, { claims, exp: payload.exp });
        return claims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw authErrors.tokenExpired();
        throw authErrors.invalidToken();
      }
    },
  };
}
