import { RECENT_SIGN_IN_MINUTES } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';

export const verificationErrors = {
  invalidLink: () =>
    new AppError(
      400,
      'INVALID_VERIFICATION_LINK',
      'This confirmation link is invalid, was already used or has expired. Sign in and ask for a new one.',
    ),
  addressTaken: () =>
    new AppError(
      409,
      'EMAIL_TAKEN',
      'This address now belongs to another Digest account, so it cannot become yours. Cancel the change in your profile or choose another address.',
    ),
  alreadyVerified: () =>
    new AppError(
      409,
      'ALREADY_VERIFIED',
      'Your e-mail address is already confirmed: there is nothing to resend.',
    ),
  passwordRequired: () => new AppError(400, 'PASSWORD_REQUIRED', 'Enter your current password'),
  signInAgain: () =>
    new AppError(
      403,
      'RECENT_SIGN_IN_REQUIRED',
      `For your safety, this needs a sign-in in the last ${RECENT_SIGN_IN_MINUTES} minutes. Log out, sign in again and retry.`,
    ),
};
