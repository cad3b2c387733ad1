import { unauthenticated } from '#server/platform/http/auth';
import { AppError } from '#server/platform/http/errors';

export const authErrors = {
  unauthenticated,
  tokenExpired: () => new AppError(401, 'TOKEN_EXPIRED', 'Your session has expired. Please log in again.'),
  invalidToken: () => new AppError(401, 'INVALID_TOKEN', 'Log in to continue.'),
  // docs/product.md §4/§8: the client logs out when it sees exactly this message.
  tokenRevoked: () => new AppError(401, 'TOKEN_REVOKED', 'Token revoked!'),
  noSession: () => new AppError(401, 'NO_SESSION', 'Log in to continue.'),
  foreignRequest: () =>
    new AppError(403, 'FOREIGN_REQUEST', 'This request did not come from the Digest app and was refused.'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password.'),
  emailTaken: () =>
    new AppError(409, 'EMAIL_TAKEN', 'An account with this e-mail already exists. Log in instead.'),
  invalidRecoveryToken: () =>
    new AppError(
      400,
      'INVALID_RECOVERY_TOKEN',
      'This password reset link is invalid or has expired. Ask for a new one.',
    ),
};
