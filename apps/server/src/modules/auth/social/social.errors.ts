import { type FlowErrorCode, type SocialProvider, socialSignInMessage } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';

/** How the provider is named to people (docs/product.md calls X by its old name, Twitter). */
export const PROVIDER_LABELS: Record<SocialProvider, string> = {
  google: 'Google',
  twitter: 'Twitter',
  facebook: 'Facebook',
};

/**
 * A social sign-in that cannot go on. `code` is all the web app is told (in the redirect's `?error=`; it
 * shows the text of that code, see socialSignInMessage); `message` is that same text, for the log and tests;
 * `reason` is a finer code for the log. None ever holds a token, a code or the provider's body. `detail` is
 * the underlying error, which only a summary of is logged (see `describeProviderError`).
 */
export class SocialSignInError extends Error {
  constructor(
    readonly reason: string,
    readonly code: FlowErrorCode,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }

  /** The same message for the person, with the error behind it for the log. */
  because(detail: unknown) {
    return new SocialSignInError(this.reason, this.code, this.message, detail);
  }
}

const flowError = (reason: string, code: FlowErrorCode, provider?: SocialProvider) =>
  new SocialSignInError(reason, code, socialSignInMessage(code, provider ? PROVIDER_LABELS[provider] : ''));

export const socialErrors = {
  notConfigured: (provider: SocialProvider) => flowError('not_configured', 'not_configured', provider),
  unavailable: (provider: SocialProvider) => flowError('provider_unavailable', 'unavailable', provider),
  cancelled: (provider: SocialProvider) => flowError('access_denied', 'cancelled', provider),
  failed: (provider: SocialProvider, reason = 'provider_error') => flowError(reason, 'failed', provider),
  invalidState: (provider: SocialProvider, reason = 'invalid_state') =>
    flowError(reason, 'expired', provider),
  noVerifiedEmail: (provider: SocialProvider) =>
    flowError('no_verified_email', 'no_verified_email', provider),
  tooManyAttempts: () => flowError('rate_limited', 'rate_limited'),
  ticketOfAnotherBrowser: () =>
    new AppError(
      403,
      'TICKET_OF_ANOTHER_BROWSER',
      'This sign-in was started in another browser. Start it again here.',
    ),
  signedInAsAnother: (provider: SocialProvider) =>
    new AppError(
      409,
      'SIGNED_IN_AS_ANOTHER_USER',
      `You are already logged in with another account. Log out first, then continue with ${PROVIDER_LABELS[provider]}.`,
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
