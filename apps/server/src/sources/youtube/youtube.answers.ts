import { type ProviderAnswers, providerDown } from '#server/sources/account-refusal';
import { googleErrorReasons } from '#server/sources/google-api-errors';

/**
 * The YouTube Data API's answers (channel search and details, read with the server's key) and what the
 * user reads for them (https://developers.google.com/youtube/v3/docs/errors). The key is the server's, so
 * nothing here asks the user to reconnect: it says whose it is. The daily quota (10,000 units, a search
 * costs 100) resets at midnight Pacific time. The channel feeds have their own reading
 * (youtube.client.ts, REFERENCE_CHANNEL_ID).
 */
export const YOUTUBE_DATA_API_ANSWERS: ProviderAnswers = {
  reasonsOf: googleErrorReasons,
  rows: [
    {
      status: 400,
      reasons: ['keyInvalid', 'badRequest', 'API_KEY_INVALID'],
      kind: 'unauthorized',
      message: "YouTube refused the server's API key (not valid)",
    },
    {
      status: 403,
      reasons: ['quotaExceeded', 'dailyLimitExceeded'],
      kind: 'rate_limited',
      message: "YouTube search used up this server's daily quota: it works again after midnight Pacific time",
    },
    {
      status: 403,
      reasons: ['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED'],
      kind: 'rate_limited',
      message: 'YouTube is limiting requests right now: retry {retry}',
    },
    {
      status: 403,
      reasons: ['accessNotConfigured', 'SERVICE_DISABLED'],
      kind: 'not_configured',
      message: "The YouTube Data API is not enabled for this server's API key",
    },
    { status: 403, kind: 'unauthorized', message: "YouTube refused the server's API key" },
    { status: 429, kind: 'rate_limited', message: 'YouTube is limiting requests right now: retry {retry}' },
    providerDown('YouTube'),
  ],
};
