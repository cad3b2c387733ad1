import { OPML_MESSAGES, type OpmlRefusedFeed } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';

export const portabilityErrors = {
  tooLarge: () => new AppError(413, 'OPML_TOO_LARGE', OPML_MESSAGES.tooLarge),
  /** Feeds of the chosen folders that cannot be added: each named with its reason. */
  unsafeFeeds: (refused: OpmlRefusedFeed[]) =>
    new AppError(
      422,
      'OPML_FEEDS_REFUSED',
      `${OPML_MESSAGES.unsafeFeeds} ${refused
        .slice(0, 10)
        .map((feed) => `"${feed.title.slice(0, 60)}" (${feed.xmlUrl.slice(0, 100)}): ${feed.reason}`)
        .join('; ')}${refused.length > 10 ? `; and ${refused.length - 10} more` : ''}.`,
    ),
};
