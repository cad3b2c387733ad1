import { z } from 'zod';
import { jsonOf, type ProviderAnswers, providerDown } from '#server/sources/account-refusal';
import type { ConnectedAccountSummary } from '#server/sources/connector';
import { SourceError } from '#server/sources/source-error';

const PROVIDER = 'X (Twitter)';

/**
 * What connecting an X account asks for: every scope an endpoint the X sources read needs (below), and
 * `offline.access` for a refresh token. Accounts connected before `follows.read` was added lack it.
 */
export const X_ACCOUNT_SCOPES = ['tweet.read', 'users.read', 'follows.read', 'list.read', 'offline.access'];

/**
 * The scopes each read needs, from the endpoint's X API v2 reference page ("OAuth 2.0 scopes required by
 * this endpoint"), and how the product names the read in messages.
 */
export const X_READS = {
  userTweets: { scopes: ['tweet.read', 'users.read'], what: 'the posts of the accounts you chose' },
  timeline: { scopes: ['tweet.read', 'users.read'], what: 'your home timeline' },
  search: { scopes: ['tweet.read', 'users.read'], what: 'search' },
  listTweets: { scopes: ['tweet.read', 'users.read', 'list.read'], what: 'the posts of a list' },
  ownedLists: { scopes: ['users.read', 'list.read'], what: 'your lists' },
  followedLists: { scopes: ['tweet.read', 'users.read', 'list.read'], what: 'your lists' },
  following: { scopes: ['tweet.read', 'users.read', 'follows.read'], what: 'the accounts you follow' },
  userLookup: { scopes: ['tweet.read', 'users.read'], what: 'an account by its username' },
} as const;
export type XRead = (typeof X_READS)[keyof typeof X_READS];

const reconnectToGrant = (read: XRead, missing: readonly string[]) =>
  `${PROVIDER} has not let Digest read ${read.what}: reconnect your X account on the Connected accounts page to grant ${missing.join(', ')}.`;

/**
 * Refuses before asking X when the account's stored scopes (what X granted when it was connected) lack one
 * this read needs: X would answer a bare 403. Scopes X did not report (null) are left to X to judge.
 */
export function requireScopes(account: ConnectedAccountSummary, read: XRead): void {
  if (account.scopes === null) return;
  const missing = read.scopes.filter((scope) => !account.scopes?.includes(scope));
  if (missing.length > 0) throw new SourceError('not_connected', reconnectToGrant(read, missing));
}

/**
 * X's `x-rate-limit-reset` is the epoch second the window reopens; X sends no Retry-After
 * (https://docs.x.com/x-api/fundamentals/rate-limits: "x-rate-limit-reset: the remaining window before
 * the rate limit resets, in UTC epoch seconds").
 */
export function xRetryAfter(headers: Record<string, string>, nowMs: number): number | undefined {
  const reset = headers['x-rate-limit-reset']?.trim();
  return reset && /^\d+$/.test(reset) ? Math.max(0, Math.ceil(Number(reset) - nowMs / 1000)) : undefined;
}

/** The fields of X's error bodies the table reads: a problem object, or a v1.1-style `errors` list. */
const xErrorSchema = z.object({
  type: z.string().optional(),
  reason: z.string().optional(),
  errors: z.array(z.object({ code: z.number().optional() }).loose()).optional(),
});

/**
 * The reasons an X error body names: its problem type's last segment ('usage-capped', 'client-forbidden'),
 * its `reason` ('client-not-enrolled' …) and each v1.1-style error `code` ('453').
 */
function xReasons(body: string): string[] {
  const parsed = xErrorSchema.safeParse(jsonOf(body)).data;
  if (!parsed) return [];
  return [
    ...(parsed.type ? [parsed.type.slice(parsed.type.lastIndexOf('/') + 1)] : []),
    ...(parsed.reason ? [parsed.reason] : []),
    ...(parsed.errors ?? []).flatMap((error) => (error.code === undefined ? [] : [String(error.code)])),
  ];
}

/**
 * X's answers to `read` as the product says them (X API v2 "Response codes and errors",
 * https://docs.x.com/x-api/fundamentals/response-codes-and-errors; the problem types of X's OpenAPI
 * document). A 403 that is neither about the app's tier nor its project is a scope the token lacks. The
 * rest is generic: 401 reconnect (account-refusal.ts), 429 retry when `x-rate-limit-reset` says, 404 not
 * found.
 */
export function xAnswers(read: XRead): ProviderAnswers {
  return {
    reasonsOf: xReasons,
    rows: [
      {
        status: 429,
        reasons: ['usage-capped'],
        kind: 'rate_limited',
        message: `${PROVIDER}: this server's X app has used its monthly read allowance; reading resumes when X renews it`,
      },
      {
        status: 403,
        reasons: ['client-not-enrolled', 'official-client-forbidden'],
        kind: 'tier_required',
        message: `${PROVIDER} refuses this server's app: it is not attached to a project with X API access. The server's operator must attach it to a project (on a paid tier) in the X developer portal.`,
      },
      {
        // "You currently have access to a subset of X API V2 endpoints": the Free tier.
        status: 403,
        reasons: ['453'],
        kind: 'tier_required',
        message: `${PROVIDER} does not let this server read ${read.what}: it needs a paid X API access tier (Basic or higher), which the server's operator must subscribe to.`,
      },
      { status: 403, kind: 'not_connected', message: reconnectToGrant(read, read.scopes) },
      providerDown(PROVIDER),
    ],
  };
}
