import { AppError } from '#server/platform/http/errors';

export const subscribersErrors = {
  digestNotFound: () => new AppError(404, 'DIGEST_NOT_FOUND', 'No such Digest.'),
  subscriberNotFound: (email: string) =>
    new AppError(404, 'SUBSCRIBER_NOT_FOUND', `${email.slice(0, 254)} is not a subscriber of this Digest.`),
  invitationWithdrawn: () =>
    new AppError(
      409,
      'INVITATION_WITHDRAWN',
      'The owner removed you from this Digest, so there is nothing to accept. Nothing will be sent to you.',
    ),
  subscriptionNotFound: () =>
    new AppError(
      404,
      'SUBSCRIPTION_NOT_FOUND',
      'This unsubscribe link is not valid (or the Digest was deleted).',
    ),
};
