import type { SocialProvider } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';

/** How the provider is named to people (docs/product.md calls X by its old name, Twitter). */
export const PROVIDER_LABELS: Record<SocialProvider, string> = {
  google: 'Google',
  twitter: 'Twitter',
  facebook: 'Facebook',
};

/**
 * A social sign-in that cannot go on. `message` is shown to the person (it travels in the redirect to the
 * web app); `reason` is a short code for the log. Neither ever holds a token, a code or the provider's body.
 * `detail` is the underlying error, which only a summary of is logged (see `describeProviderError`).
 */
export class SocialSignInError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }

  /** The same message for the person, with the error behind it for the log. */
  because(detail: unknown) {
    return new SocialSignInError(this.reason, this.message, detail);
  }
}

export const socialErrors = {
  notConfigured: (provider: SocialProvider) =>
    new SocialSignInError(
      'not_configured',
      `${PROVIDER_LABELS[provider]} sign-in is not configured on this server.`,
    ),
  unavailable: (provider: SocialProvider) =>
    new SocialSignInError(
      'provider_unavailable',
      `${PROVIDER_LABELS[provider]} sign-in is not available right now. Please try again later.`,
    ),
  cancelled: (provider: SocialProvider) =>
    new SocialSignInError('access_denied', `${PROVIDER_LABELS[provider]} sign-in was cancelled.`),
  failed: (provider: SocialProvider, reason = 'provider_error') =>
    new SocialSignInError(reason, `${PROVIDER_LABELS[provider]} sign-in failed. Please try again.`),
  invalidState: (provider: SocialProvider, reason = 'invalid_state') =>
    new SocialSignInError(
      reason,
      `This ${PROVIDER_LABELS[provider]} sign-in has expired or was already used. Please try again.`,
    ),
  noVerifiedEmail: (provider: SocialProvider) =>
    new SocialSignInError(
      'no_verified_email',
      `Your ${PROVIDER_LABELS[provider]} account has no verified e-mail address. Verify one with ${PROVIDER_LABELS[provider]}, or sign up with e-mail and password.`,
    ),
  tooManyAttempts: () =>
    new SocialSignInError(
      'rate_limited',
      'Too many sign-in attempts. Please wait a few minutes and try again.',
    ),
  invalidTicket: () =>
    new AppError(
      400,
      'INVALID_TICKET',
      'This sign-in link has expired or was already used. Please sign in again.',
    ),
};

/**
 * What the log may say about an error: its kind, codes and message. Never a `cause` that is not an error
 * (oauth4webapi keeps response bodies there, which can hold tokens), and no message of a query error
 * (Drizzle repeats the query's parameters in it).
 */
export function summariseError(error: unknown): Record<string, unknown> | undefined {
  if (error === undefined) return undefined;
  if (!(error instanceof Error)) return { type: typeof error };
  const fields = error as Error & { code?: unknown; error?: unknown; status?: unknown; query?: unknown };
  const cause = error.cause instanceof Error ? summariseError(error.cause) : undefined;
  return {
    type: error.name,
    ...(fields.query === undefined ? { message: error.message } : {}),
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    // ResponseBodyError: the OAuth error code (invalid_grant…) and HTTP status the provider answered.
    ...(typeof fields.error === 'string' ? { oauthError: fields.error } : {}),
    ...(typeof fields.status === 'number' ? { status: fields.status } : {}),
    ...(cause ? { cause } : {}),
  };
}
