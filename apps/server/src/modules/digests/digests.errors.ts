import { DIGEST_MESSAGES, noRoomForDigestsMessage } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';

export const digestsErrors = {
  digestNotFound: () => new AppError(404, 'DIGEST_NOT_FOUND', 'No such Digest.'),
  draftNotFound: () => new AppError(404, 'DRAFT_NOT_FOUND', 'No such draft.'),
  buildNotFound: () => new AppError(404, 'BUILD_NOT_FOUND', 'No such issue of this Digest.'),
  feedNotFound: () => new AppError(404, 'FEED_NOT_FOUND', 'No such feed: the Digest is not public.'),
  templatesNotFound: (category: string) =>
    new AppError(
      404,
      'TEMPLATE_CATEGORY_NOT_FOUND',
      `No templates in the category "${category.slice(0, 40)}".`,
    ),
  tooManyDigests: () => new AppError(422, 'TOO_MANY_DIGESTS', DIGEST_MESSAGES.maxDigests),
  noRoomFor: (wanted: number, room: number) =>
    new AppError(422, 'TOO_MANY_DIGESTS', noRoomForDigestsMessage(wanted, room)),
  tooManyDrafts: () => new AppError(422, 'TOO_MANY_DRAFTS', DIGEST_MESSAGES.maxDrafts),
  /** A resume's catch-up issue is not offered for this digest (the message says why). */
  catchUpRefused: (message: string) => new AppError(422, 'CATCH_UP_NOT_OFFERED', message),
  accountGone: () => new AppError(404, 'ACCOUNT_NOT_FOUND', 'This account no longer exists.'),
};
