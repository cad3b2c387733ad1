import * as z from 'zod/mini';
import {
  accessTokenSchema,
  emailSchema,
  isStrongPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MAX_MESSAGE,
  PASSWORD_MIN_LENGTH,
  SIGNUP_PASSWORD_MESSAGE,
} from './auth';

/** Messages of docs/product.md §5 (onboarding, profile), word for word. */
export const ONBOARDING_REQUIRED_MESSAGE = 'This field is required.';
export const NAME_LETTERS_MESSAGE = 'Name must contain only letters';
export const USERNAME_CHARACTERS_MESSAGE = 'Username must contain only letters and numbers.';
export const ONBOARDING_BOTH_MESSAGE = 'To finish signing up, you must add both your full name and username.';
export const PROFILE_PASSWORD_MESSAGE = 'Password should have at least 8 characters';

export const FULL_NAME_MAX_LENGTH = 80;
export const USERNAME_MAX_LENGTH = 30;
export const BIO_MAX_LENGTH = 500;
/**
 * How long a username its owner gave up stays theirs (docs/product.md §4 Profile edit): mail to the old
 * newsletter address and links to the old public page do not reach a stranger the next day.
 */
export const USERNAME_RESERVATION_DAYS = 30;

/** Letters of any alphabet (Polish ones included) and single spaces between words. */
export const fullNameSchema = z.pipe(
  z.string({ error: ONBOARDING_REQUIRED_MESSAGE }).check(
    z.trim(),
    z.minLength(1, { error: ONBOARDING_REQUIRED_MESSAGE, abort: true }),
    z.maxLength(FULL_NAME_MAX_LENGTH, {
      error: `Name should have at most ${FULL_NAME_MAX_LENGTH} characters`,
      abort: true,
    }),
    z.regex(/^\p{L}+( \p{L}+)*$/u, { error: NAME_LETTERS_MESSAGE }),
  ),
  z.transform((value: string) => value.replace(/\s+/g, ' ')),
);

/** ASCII letters and digits: the username is the local part of the newsletter address. */
export const usernameSchema = z.string({ error: ONBOARDING_REQUIRED_MESSAGE }).check(
  z.trim(),
  z.minLength(1, { error: ONBOARDING_REQUIRED_MESSAGE, abort: true }),
  z.maxLength(USERNAME_MAX_LENGTH, {
    error: `Username should have at most ${USERNAME_MAX_LENGTH} characters`,
    abort: true,
  }),
  z.regex(/^[A-Za-z0-9]+$/, { error: USERNAME_CHARACTERS_MESSAGE }),
);

/** True when `zone` is an IANA time zone this runtime knows (e.g. Europe/Warsaw). */
export function isIanaTimeZone(zone: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone) && zone !== 'UTC') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

/** docs/product.md §3 timezone of a user: `{ locale, timezone, offset }` (offset in minutes). */
export const timezoneSchema = z.object({
  timezone: z.string().check(z.refine(isIanaTimeZone, { error: 'Choose a time zone from the list' })),
  locale: z
    .string()
    .check(z.maxLength(35), z.refine(isLocale, { error: 'Locale must be a language tag such as en-US' })),
  offset: z.number().check(z.int(), z.gte(-14 * 60), z.lte(14 * 60)),
});
export type Timezone = z.output<typeof timezoneSchema>;

/** `PATCH /api/users/me/onboarding`-style completion and the welcome form: both fields. */
export const onboardingSchema = z.object({ fullName: fullNameSchema, username: usernameSchema });
export type OnboardingInput = z.input<typeof onboardingSchema>;

/**
 * `PATCH /api/users/me`: only the fields that changed; unknown fields are refused. The e-mail is not one of
 * them: it changes through `POST /api/users/me/email`, which asks for the password and a verified link.
 */
export const profilePatchSchema = z.partial(
  z.strictObject({
    fullName: fullNameSchema,
    username: usernameSchema,
    bio: z
      .string()
      .check(
        z.trim(),
        z.maxLength(BIO_MAX_LENGTH, { error: `Bio should have at most ${BIO_MAX_LENGTH} characters` }),
      ),
    timezone: timezoneSchema,
  }),
);
export type ProfilePatch = z.output<typeof profilePatchSchema>;

/** A profile password field (docs/product.md §5): optional in the form, at least 8 characters when given. */
export const profilePasswordSchema = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, { error: PROFILE_PASSWORD_MESSAGE }),
    z.maxLength(PASSWORD_MAX_LENGTH, { error: PASSWORD_MAX_MESSAGE }),
  );

/**
 * `PATCH /api/users/me/password`. The new password also needs a letter, a digit and a symbol: the
 * log-in form refuses any other, so a weaker one would lock the user out of their account.
 */
export const changePasswordSchema = z.strictObject({
  oldPassword: z
    .string()
    .check(z.minLength(1, { error: 'Enter your current password' }), z.maxLength(PASSWORD_MAX_LENGTH)),
  newPassword: profilePasswordSchema.check(z.refine(isStrongPassword, { error: SIGNUP_PASSWORD_MESSAGE })),
});
export type ChangePasswordBody = z.output<typeof changePasswordSchema>;

/** The current password, asked again before changing the e-mail or deleting the account. */
export const currentPasswordSchema = z
  .string()
  .check(z.minLength(1, { error: 'Enter your current password' }), z.maxLength(PASSWORD_MAX_LENGTH));

/** `POST /api/users/me/email`: the new address becomes pending until its link is followed. */
export const changeEmailSchema = z.strictObject({ email: emailSchema, password: currentPasswordSchema });
export type ChangeEmailBody = z.output<typeof changeEmailSchema>;

/**
 * `DELETE /api/users/me`: the password of an e-mail account. A social account has none and instead needs
 * a sign-in in the last `RECENT_SIGN_IN_MINUTES`.
 */
export const deleteAccountSchema = z.strictObject({ password: z.optional(currentPasswordSchema) });
export type DeleteAccountBody = z.output<typeof deleteAccountSchema>;

/** How recent a social user's sign-in must be to change what protects the account. */
export const RECENT_SIGN_IN_MINUTES = 10;

export const SIGN_IN_METHODS = ['email', 'google', 'twitter', 'facebook'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** The signed-in user as every call returns it (docs/product.md §3 User / profile). */
export const userSchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  fullName: z.nullable(z.string()),
  username: z.nullable(z.string()),
  bio: z.nullable(z.string()),
  /** URL of the square PNG photo, or null. `photo` is the same value (docs/product.md §3 names both). */
  profileImg: z.nullable(z.string()),
  photo: z.nullable(z.string()),
  method: z.enum(SIGN_IN_METHODS),
  /** True once the owner followed a link mailed to `email` (or signed in with a provider that vouches for it). */
  confirmed: z.boolean(),
  /** A new address waiting for its verification link; `email` stays the account's until then. */
  pendingEmail: z.nullable(z.string()),
  timezone: z.nullable(timezoneSchema),
  /** `{username}@{MAIL_DOMAIN}` once a username is set. */
  newsletterEmail: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.output<typeof userSchema>;

/** Answer of sign-up, sign-in and refresh (docs/design.md §5). */
export const authResponseSchema = z.object({ token: accessTokenSchema, user: userSchema });
export type AuthResponse = z.output<typeof authResponseSchema>;

export const userResponseSchema = z.object({ user: userSchema });
export const messageResponseSchema = z.object({ message: z.string() });

/** Photo upload rules (docs/product.md §5/§9). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_MIN_SIDE = 100;
export const PHOTO_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml'] as const;

/** Social sign-in providers and whether this server has credentials for each. */
export const SOCIAL_PROVIDERS = ['google', 'twitter', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
export const socialProvidersResponseSchema = z.object({
  providers: z.array(z.object({ provider: z.enum(SOCIAL_PROVIDERS), configured: z.boolean() })),
});

/** `POST /api/auth/social/ticket`: the one-time ticket a social sign-in hands to the web app. */
export const socialTicketBodySchema = z.strictObject({
  ticket: z.string().check(z.minLength(1), z.maxLength(200)),
});
export const socialTicketResponseSchema = z.extend(authResponseSchema, {
  /** True when this sign-in created the account (the web app then asks for name and username). */
  isNewUser: z.boolean(),
});
export type SocialTicketResponse = z.output<typeof socialTicketResponseSchema>;
