import { jsonOf, type ProviderAnswers, providerDown } from '#server/sources/account-refusal';

const RECONNECT = 'Stripe refused the connected account: reconnect your account';

/** The `type` and `code` of Stripe's error body `{ error: { type, code, message } }`. */
function stripeReasons(body: string): string[] {
  const error = (jsonOf(body) as { error?: { type?: unknown; code?: unknown } } | undefined)?.error;
  return [error?.type, error?.code].filter((value): value is string => typeof value === 'string');
}

/**
 * Stripe's answers and what the user reads for them (https://docs.stripe.com/api/errors): 401 is a
 * connection Stripe no longer accepts (revoked, deauthorised, account closed), 403 a key without the
 * permission (a restricted key, a removed Connect grant), 429 its rate limit, 5xx its own failure.
 */
export const STRIPE_ANSWERS: ProviderAnswers = {
  reasonsOf: stripeReasons,
  rows: [
    { status: 401, kind: 'not_connected', message: RECONNECT },
    {
      status: 403,
      kind: 'not_connected',
      message: 'Stripe no longer lets Digest read this account: reconnect your account',
    },
    { status: 404, kind: 'not_found', message: 'Stripe no longer has this account' },
    {
      status: 429,
      kind: 'rate_limited',
      message: 'Stripe is limiting requests to this account right now: retry {retry}',
    },
    providerDown('Stripe'),
  ],
};
