import {
  type AuthResponse,
  authResponseSchema,
  type ForgotPasswordBody,
  type LoginBody,
  messageResponseSchema,
  type ResetPasswordBody,
  SESSION_REQUEST_HEADER,
  type SignupBody,
  type SocialProvider,
  type SocialTicketResponse,
  socialProvidersResponseSchema,
  socialTicketResponseSchema,
} from '@digest/contracts';
import type * as z from 'zod/mini';
import { api } from '#web/lib/api-client';
import { API_BASE } from '#web/lib/config';
import { getToken } from '#web/lib/session/session';

export type { AuthResponse, SocialProvider };

/**
 * docs/design.md §5: sign-in and sign-up answer `{ token: { accessToken }, user }`; the refresh token comes
 * in an HttpOnly cookie the browser keeps.
 */
export function signInWithEmail(body: LoginBody): Promise<AuthResponse> {
  return api.post('/auth/signin/email', body, { schema: authResponseSchema, auth: false });
}

/** The same answer whether or not the address has an account, and no session: the mailed link signs in. */
export function signUpWithEmail(body: SignupBody): Promise<{ message: string }> {
  return api.post('/auth/signup/email', body, { schema: messageResponseSchema, auth: false });
}

/** Follows a verification link: confirms the address and answers a session, as a sign-in does. */
export function verifyEmail(token: string): Promise<AuthResponse> {
  return api.post('/auth/email/verify', { token }, { schema: authResponseSchema, auth: false });
}

/** docs/product.md §7: the app origin goes in `x-requested-with`, so the mail links back to this app. */
export function requestPasswordReset(body: ForgotPasswordBody): Promise<{ message: string }> {
  return api.post('/auth/password/forgot', body, {
    schema: messageResponseSchema,
    auth: false,
    headers: { 'x-requested-with': window.location.origin },
  });
}

export function resetPassword(body: ResetPasswordBody): Promise<{ message: string }> {
  return api.post('/auth/password/recover', body, { schema: messageResponseSchema, auth: false });
}

/** Revokes this session on the server. */
export function logOutOnServer(): Promise<unknown> {
  return api.post('/auth/logout', undefined, { timeoutMs: 5000 });
}

export type SocialMode = 'signin' | 'signup';

/** Where the browser goes to start a social sign-in or sign-up (docs/product.md §7). */
export function socialAuthUrl(mode: SocialMode, provider: SocialProvider): string {
  return `${API_BASE}/auth/${mode}/${provider}`;
}

/**
 * After the provider, the server sends the browser back with a one-time ticket for the session. It is
 * redeemed with the cookie the start of the flow set in this browser and the app's header; the access token
 * of a session this tab holds goes along, so the server can refuse to replace another user's session.
 */
export function exchangeSocialTicket(ticket: string): Promise<SocialTicketResponse> {
  const signedIn = getToken();
  return api.post(
    '/auth/social/ticket',
    { ticket },
    {
      schema: socialTicketResponseSchema,
      auth: false,
      headers: {
        [SESSION_REQUEST_HEADER]: '1',
        ...(signedIn ? { Authorization: `Bearer ${signedIn.accessToken}` } : {}),
      },
    },
  );
}

export type SocialProviders = z.output<typeof socialProvidersResponseSchema>['providers'];

export function fetchSocialProviders(signal?: AbortSignal): Promise<SocialProviders> {
  return api
    .get('/auth/providers', {
      schema: socialProvidersResponseSchema,
      auth: false,
      ...(signal ? { signal } : {}),
    })
    .then((body) => body.providers);
}
