import { SESSION_REQUEST_HEADER } from '@digest/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { presentUser } from '#server/modules/users/users.presenter';
import { authErrors } from './auth.errors';
import { type IssuedTokens, REFRESH_TOKEN_TTL_MS } from './auth.usecases';
import { readCookie, stateCookie, stateCookieOf } from './oauth-browser';

/**
 * The refresh token lives only in this cookie: HttpOnly (no script, so no injected one, can read it),
 * SameSite=Strict (no cross-site request carries it), and sent only to the refresh route. Over https it is
 * Secure and named `__Secure-digest_refresh`.
 */
export const REFRESH_COOKIE = 'digest_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth/refresh';

export interface SessionCookieDeps {
  appUrl: string;
  mailDomain: string;
}

function refreshCookie(appUrl: string, value: string, maxAgeSeconds: number): string {
  return stateCookie({
    ...stateCookieOf(REFRESH_COOKIE, appUrl),
    path: REFRESH_COOKIE_PATH,
    value,
    maxAgeSeconds,
    sameSite: 'Strict',
  });
}

export function readRefreshCookie(request: FastifyRequest, appUrl: string): string | undefined {
  return readCookie(request, stateCookieOf(REFRESH_COOKIE, appUrl).name) || undefined;
}

/** Makes the browser forget its refresh token (log out, a refused refresh). */
export function clearRefreshCookie(reply: FastifyReply, appUrl: string): void {
  reply.header('set-cookie', refreshCookie(appUrl, '', 0));
}

/**
 * The one answer of every route that starts or renews a session (sign-in, refresh, a social ticket, a
 * verification link): the refresh token goes into the cookie, the body holds the access token and the user.
 */
export function sendSession<Extra extends object = object>(
  reply: FastifyReply,
  deps: SessionCookieDeps,
  result: { user: Parameters<typeof presentUser>[0]; token: IssuedTokens },
  extra?: Extra,
) {
  reply
    .header('set-cookie', refreshCookie(deps.appUrl, result.token.refreshToken, REFRESH_TOKEN_TTL_MS / 1000))
    .header('cache-control', 'no-store');
  return {
    token: { accessToken: result.token.accessToken },
    user: presentUser(result.user, { mailDomain: deps.mailDomain }),
    ...(extra as Extra),
  };
}

/**
 * A preHandler for the routes a cookie authenticates. SameSite=Strict already keeps the cookie off
 * cross-site requests; this also refuses any request that did not come from the app itself: it must carry
 * the app's own header (which a cross-site page cannot add without a CORS preflight), and an `Origin`, when
 * the browser sends one, must be the app's.
 */
export function requireAppRequest(appUrl: string) {
  const appOrigin = new URL(appUrl).origin;
  return async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (!request.headers[SESSION_REQUEST_HEADER] || (origin !== undefined && origin !== appOrigin)) {
      throw authErrors.foreignRequest();
    }
  };
}
