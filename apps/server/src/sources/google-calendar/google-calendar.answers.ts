import { type ProviderAnswers, providerDown } from '#server/sources/account-refusal';
import { googleErrorReasons } from '#server/sources/google-api-errors';

const RECONNECT = 'Google Calendar refused the connected account: reconnect your account';

/**
 * Google Calendar API's answers and what the user reads for them
 * (https://developers.google.com/calendar/api/guides/errors). Google answers its rate limits with 403 as
 * well as 429, so a 403 is read by its reason before it is taken for a refused account.
 */
export const GOOGLE_CALENDAR_ANSWERS: ProviderAnswers = {
  reasonsOf: googleErrorReasons,
  rows: [
    { status: 401, kind: 'not_connected', message: RECONNECT },
    {
      status: 403,
      reasons: ['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED'],
      kind: 'rate_limited',
      message: 'Google Calendar is limiting requests right now: retry {retry}',
    },
    {
      status: 403,
      reasons: ['dailyLimitExceeded', 'quotaExceeded'],
      kind: 'rate_limited',
      message: 'This server used up its daily Google Calendar quota: the calendar shows again tomorrow',
    },
    {
      status: 403,
      reasons: ['accessNotConfigured', 'SERVICE_DISABLED'],
      kind: 'not_configured',
      message: "The Google Calendar API is not enabled in this server's Google Cloud project",
    },
    {
      status: 403,
      reasons: ['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT'],
      kind: 'not_connected',
      message: 'Google Calendar was not allowed to be read: reconnect your account and allow calendar access',
    },
    { status: 403, kind: 'not_connected', message: RECONNECT },
    { status: 404, kind: 'not_found', message: 'Google Calendar no longer has this calendar' },
    {
      status: 429,
      kind: 'rate_limited',
      message: 'Google Calendar is limiting requests right now: retry {retry}',
    },
    providerDown('Google Calendar'),
  ],
};
