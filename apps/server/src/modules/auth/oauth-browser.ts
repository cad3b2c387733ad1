import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * The browser side of an OAuth flow, as social sign-in (modules/auth/social) and connected accounts
 * (modules/accounts) run it: the cookie that binds the flow's state to the browser that started it, the
 * query the provider sends back, and what a failed browser step becomes.
 */

/** The query of the provider's redirect back to us. */
export const oauthCallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(4096).optional(),
});

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The name and Secure flag of a state cookie, for the app at `appUrl`. Over https the name carries the
 * `__Secure-` prefix: browsers accept such a cookie only with Secure from an https page, so neither a
 * plain-http network attacker nor a sibling subdomain (whose cookies would not have the prefix) can plant a
 * state of their own in the victim's browser. Plain http (localhost development, tests) keeps the bare name,
 * which an http page may set.
 */
export function stateCookieOf(baseName: string, appUrl: string): { name: string; secure: boolean } {
  const secure = new URL(appUrl).protocol === 'https:';
  return { name: secure ? `__Secure-${baseName}` : baseName, secure };
}

/**
 * The Set-Cookie value of the state cookie `name`, limited to `path` (the callback, and whatever else the flow
 * needs under it); an empty value with a max age of 0 makes the browser forget it.
 */
export function stateCookie(cookie: {
  name: string;
  path: string;
  value: string;
  maxAgeSeconds: number;
  secure: boolean;
  /**
   * Lax (the default): sent on the provider's top-level redirect back to us, not on cross-site subrequests.
   * Strict, for a cookie only the app's own requests need: no cross-site request of any kind carries it.
   */
  sameSite?: 'Lax' | 'Strict';
}): string {
  return [
    `${cookie.name}=${cookie.value}`,
    `Path=${cookie.path}`,
    `Max-Age=${cookie.maxAgeSeconds}`,
    'HttpOnly',
    `SameSite=${cookie.sameSite ?? 'Lax'}`,
    // A `__Secure-` cookie without Secure would be dropped by the browser.
    ...(cookie.secure || cookie.name.startsWith('__Secure-') ? ['Secure'] : []),
  ].join('; ');
}

/** The error of one flow (sign-in, connecting an account): a message for the person, a reason for the log. */
export interface FlowError extends Error {
  readonly reason: string;
  readonly detail?: unknown;
}

/**
 * What any failure of a browser-facing step becomes: the flow's own error as it is; a rate limit as "too many
 * attempts"; another 4xx (a malformed request: a parameter twice, one too long) as `bad_request`, nothing on
 * our side having gone wrong; anything else as `internal_error`, after `unexpected` has logged it.
 */
export function flowFailureOf<E extends FlowError>(
  error: unknown,
  flow: {
    isOwn: (error: unknown) => error is E;
    tooManyAttempts: () => E;
    failed: (reason: 'bad_request' | 'internal_error') => E & { because(detail: unknown): E };
    unexpected: (error: unknown) => void;
  },
): E {
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (flow.isOwn(error)) return error;
  if (statusCode === 429) return flow.tooManyAttempts();
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return flow.failed('bad_request').because(error);
  }
  flow.unexpected(error);
  return flow.failed('internal_error');
}
