/**
 * The browser's side of a session, for server tests: the refresh token arrives only in its HttpOnly cookie,
 * and goes back only in that cookie, with the header the web app sends on cookie-authenticated calls.
 */
import { SESSION_REQUEST_HEADER } from '@digest/contracts';
import { REFRESH_COOKIE } from '#server/modules/auth/session-cookie';
import type { HttpServer } from './test-api';

interface InjectedResponse {
  headers: Record<string, string | string[] | number | undefined>;
}

/** Every Set-Cookie line of a response. */
export function setCookiesOf(response: InjectedResponse): string[] {
  const header = response.headers['set-cookie'];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

/** The Set-Cookie line of the cookie `name` (with or without its `__Secure-` prefix), if the response set it. */
export function setCookieOf(response: InjectedResponse, name: string): string | undefined {
  return setCookiesOf(response).find((line) => line.replace(/^__Secure-/, '').startsWith(`${name}=`));
}

/** The value a response gave the cookie `name` ('' when it cleared it). */
export function cookieValueOf(response: InjectedResponse, name: string): string | undefined {
  const line = setCookieOf(response, name);
  return line?.slice(line.indexOf('=') + 1, line.indexOf(';'));
}

/** The refresh token a session-starting response put in its cookie; throws when there is none. */
export function refreshTokenOf(response: InjectedResponse): string {
  const value = cookieValueOf(response, REFRESH_COOKIE);
  if (!value) throw new Error(`no refresh cookie in ${JSON.stringify(setCookiesOf(response))}`);
  return value;
}

/** `POST /api/auth/refresh` as the web app makes it: the refresh cookie and the app's header. */
export function refreshWithCookie(
  app: HttpServer,
  refreshToken: string | undefined,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    headers: {
      [SESSION_REQUEST_HEADER]: '1',
      ...(refreshToken === undefined ? {} : { cookie: `${REFRESH_COOKIE}=${refreshToken}` }),
      ...headers,
    },
  });
}
