import { AppError } from '#server/platform/http/errors';

export const subscribersErrors = {
  digestNotFound: () => new AppError(404, 'DIGEST_NOT_FOUND', 'No such Digest.'),
  subscriberNotFound: (email: string) =>
    new AppError(404, 'SUBSCRIBER_NOT_FOUND', `${email.slice(0, 254)} is not a subscriber of this Digest.`),
  /** The notice rule: one "shared with you" e-mail per address and digest per week. */
  unsubscribedRecently: (emails: { email: string; until: Date }[]) =>
    new AppError(
      422,
      'SUBSCRIBER_UNSUBSCRIBED',
      emails
        .map(
          ({ email, until }) =>
            `${email} unsubscribed from this Digest; you can invite them again after ${until.toISOString().slice(0, 10)}.`,
        )
        .join(' '),
    ),
  subscriptionNotFound: () =>
    new AppError(
      404,
      'SUBSCRIPTION_NOT_FOUND',
      'This unsubscribe link is not valid (or the Digest was deleted).',
    ),
};
