import * as z from 'zod/mini';

/** Validation messages of docs/product.md §5, word for word. */
export const REQUIRED_MESSAGE = 'This field is required';
export const INVALID_EMAIL_MESSAGE = 'Should be a valid email';
export const LOGIN_PASSWORD_MESSAGE =
  'Password should have at least 8 characters contain a letter, one number and one special character';
export const SIGNUP_PASSWORD_MESSAGE =
  'Password should be at least 8 characters with one letter, one number, and one symbol.';
export const TERMS_REQUIRED_MESSAGE = REQUIRED_MESSAGE;

/** docs/product.md §9: minimum password length. */
export const PASSWORD_MIN_LENGTH = 8;
/** Upper bound so a request cannot make the server hash megabytes; far above any real password. */
export const PASSWORD_MAX_LENGTH = 1024;
export const PASSWORD_MAX_MESSAGE = `Password should have at most ${PASSWORD_MAX_LENGTH} characters`;
/** RFC 5321 limit of a forward path. */
export const EMAIL_MAX_LENGTH = 254;

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
/** A "symbol" / "special character": anything that is not a letter, a digit or white space. */
const SYMBOL = /[^\p{L}\p{Nd}\s]/u;

/** True when the password has ≥ 8 characters, a letter, a digit and a symbol (docs/product.md §5). */
export function isStrongPassword(value: string): boolean {
  return (
    [...value].length >= PASSWORD_MIN_LENGTH && LETTER.test(value) && DIGIT.test(value) && SYMBOL.test(value)
  );
}

/**
 * An e-mail address: required, surrounding white space ignored, then a standard address pattern
 * (no spaces inside, one @, a dotted domain).
 */
export const emailSchema = z.pipe(
  z
    .string({ error: REQUIRED_MESSAGE })
    .check(
      z.trim(),
      z.minLength(1, { error: REQUIRED_MESSAGE, abort: true }),
      z.maxLength(EMAIL_MAX_LENGTH, { error: INVALID_EMAIL_MESSAGE, abort: true }),
    ),
  z.email({ error: INVALID_EMAIL_MESSAGE }),
);

function strongPasswordSchema(message: string) {
  return z
    .string({ error: REQUIRED_MESSAGE })
    .check(
      z.minLength(1, { error: REQUIRED_MESSAGE, abort: true }),
      z.maxLength(PASSWORD_MAX_LENGTH, { error: PASSWORD_MAX_MESSAGE, abort: true }),
      z.refine(isStrongPassword, { error: message }),
    );
}

/** Log-in password: required; ≥ 8 characters with a letter, a digit and a symbol. */
export const loginPasswordSchema = strongPasswordSchema(LOGIN_PASSWORD_MESSAGE);

/** Sign-up and reset password: the same rule with the sign-up wording. */
export const newPasswordSchema = strongPasswordSchema(SIGNUP_PASSWORD_MESSAGE);

/** `POST /api/auth/signin/email` body. */
export const loginSchema = z.object({
  email: emailSchema,
  password: loginPasswordSchema,
});
export type LoginInput = z.input<typeof loginSchema>;
export type LoginBody = z.output<typeof loginSchema>;

/** `POST /api/auth/signup/email` body; `confirmed` is the accepted terms checkbox. */
export const signupSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  confirmed: z.literal(true, { error: TERMS_REQUIRED_MESSAGE }),
});
export type SignupInput = z.input<typeof signupSchema>;
export type SignupBody = z.output<typeof signupSchema>;

/**
 * The one answer of `POST /api/auth/signup/email`, whether the address is new or already has an account
 * (docs/decisions/0004-sign-up-answers-the-same.md): the mailbox tells which.
 */
export const SIGN_UP_MESSAGE =
  'Check your inbox: we sent you a link to confirm your e-mail address. Follow it to finish signing up.';

/** How long a link that proves a mailbox (sign-up, e-mail change) works. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;

/** `POST /api/auth/email/verify` body: the token of a verification link. */
export const verifyEmailSchema = z.strictObject({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type VerifyEmailBody = z.output<typeof verifyEmailSchema>;

/** `POST /api/auth/password/forgot` body. */
export const forgotPasswordSchema = z.object({
  email: emailSchema,
});
export type ForgotPasswordBody = z.output<typeof forgotPasswordSchema>;

/** `POST /api/auth/password/recover` body. */
export const resetPasswordSchema = z.object({
  password: newPasswordSchema,
  recoveryToken: z.string().check(z.minLength(1, { error: REQUIRED_MESSAGE })),
});
export type ResetPasswordBody = z.output<typeof resetPasswordSchema>;

/**
 * The access token that sign-in, sign-up and refresh answer (docs/design.md §5). The refresh token is never
 * in a body: it travels only in an HttpOnly cookie, out of reach of the page's scripts.
 */
export const accessTokenSchema = z.object({ accessToken: z.string().check(z.minLength(1)) });
export type AccessToken = z.output<typeof accessTokenSchema>;

/**
 * The header the web app sends on the calls that a cookie authenticates (refresh, the social ticket). A
 * cross-site page cannot send it without a CORS preflight, which the server never grants.
 */
export const SESSION_REQUEST_HEADER = 'x-digest-session';

/**
 * What a browser flow that failed (a social sign-in, connecting an account) sends back to the web app: a
 * code in `?error=`, never a text. The app shows only the texts below; any other value gets the generic one,
 * so a link with a made-up `?error=` cannot put words of its own on the page.
 */
export const FLOW_ERROR_CODES = [
  'not_configured',
  'unavailable',
  'cancelled',
  'failed',
  'expired',
  'no_verified_email',
  'missing_scope',
  'rate_limited',
] as const;
export type FlowErrorCode = (typeof FLOW_ERROR_CODES)[number];

const isFlowErrorCode = (code: string | null | undefined): code is FlowErrorCode =>
  FLOW_ERROR_CODES.includes(code as FlowErrorCode);

export const SOCIAL_SIGN_IN_GENERIC_MESSAGE = 'The sign-in did not finish. Please try again.';

/** The text of a failed social sign-in with `provider` (its label, e.g. Google), from its code only. */
export function socialSignInMessage(code: string | null | undefined, provider: string): string {
  if (!isFlowErrorCode(code)) return SOCIAL_SIGN_IN_GENERIC_MESSAGE;
  const messages: Record<FlowErrorCode, string> = {
    not_configured: `${provider} sign-in is not configured on this server.`,
    unavailable: `${provider} sign-in is not available right now. Please try again later.`,
    cancelled: `${provider} sign-in was cancelled.`,
    failed: `${provider} sign-in failed. Please try again.`,
    expired: `This ${provider} sign-in has expired or was already used. Please try again.`,
    no_verified_email: `Your ${provider} account has no verified e-mail address. Verify one with ${provider}, or sign up with e-mail and password.`,
    missing_scope: `${provider} sign-in failed. Please try again.`,
    rate_limited: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  };
  return messages[code];
}

export const CONNECT_ACCOUNT_GENERIC_MESSAGE = 'Connecting the account did not finish. Please try again.';

/** The text of a failed connection of a `provider` (its label) account, from its code only. */
export function connectAccountMessage(code: string | null | undefined, provider: string): string {
  if (!isFlowErrorCode(code)) return CONNECT_ACCOUNT_GENERIC_MESSAGE;
  const messages: Record<FlowErrorCode, string> = {
    not_configured: `${provider} is not configured on this server`,
    unavailable: `${provider} is not available right now. Please try again later.`,
    cancelled: `Connecting your ${provider} account was cancelled.`,
    failed: `Connecting your ${provider} account failed. Please try again.`,
    expired: `This ${provider} connection has expired or was already used. Please try again.`,
    no_verified_email: `Connecting your ${provider} account failed. Please try again.`,
    missing_scope: `${provider} did not give access to your calendar. Connect again and allow it.`,
    rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
  };
  return messages[code];
}
