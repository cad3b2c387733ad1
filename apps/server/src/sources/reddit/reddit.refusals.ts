import { z } from 'zod';
import { type ProviderAnswers, providerDown, refusalFrom } from '#server/sources/account-refusal';
import type { ProviderRefusal } from '#server/sources/provider-http';
import { SourceError } from '#server/sources/source-error';

/**
 * Reddit's `x-ratelimit-reset` counts the seconds until the rate-limit window ends, not a time
 * ("X-Ratelimit-Reset: Approximate number of seconds to end of period", Reddit Data API Wiki,
 * https://support.reddithelp.com/hc/en-us/articles/16160319875092). It sends no Retry-After.
 */
export function redditRetryAfter(headers: Record<string, string>): number | undefined {
  const reset = Number.parseFloat(headers['x-ratelimit-reset'] ?? '');
  return Number.isFinite(reset) && reset >= 0 ? Math.ceil(reset) : undefined;
}

/** Reddit's JSON error body: `{ reason, message, error }` (reason for a subreddit it will not show). */
const errorBodySchema = z.object({ reason: z.string().optional(), message: z.string().optional() });

function reasonOf(answer: ProviderRefusal): string | undefined | null {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(answer.body));
    return parsed.success ? (parsed.data.reason ?? null) : undefined;
  } catch {
    // Not JSON: the web page Reddit answers a server it blocks with.
    return undefined;
  }
}

/** The server is refused as a whole (not one subreddit): the connector may read the public feed instead. */
export const serverBlocked = () =>
  new SourceError(
    'blocked',
    'Reddit refuses requests from this server (403): the server needs a Reddit app (REDDIT_CLIENT_ID) to use its API',
    undefined,
    403,
  );

export const subredditMissing = (subreddit: string) =>
  new SourceError('not_found', `r/${subreddit} does not exist`, undefined, 404);

/** Reddit's answers that are the same for every request, its JSON endpoints and its feeds alike. */
export const REDDIT_ANSWERS: ProviderAnswers = {
  reasonsOf: () => [],
  rows: [providerDown('Reddit')],
};
const sameForEveryRequest = refusalFrom(REDDIT_ANSWERS);

/**
 * Reddit's refusals as the product says them. `subreddit`: the one being read, for the answers about it.
 *
 * | Reddit answers | the product says | kind |
 * |---|---|---|
 * | 403, a web page (not JSON): "blocked by network security" | Reddit refuses this server (the posts are then read from the feed) | blocked |
 * | 403 `reason: private` | r/x is private | not_found |
 * | 403 `reason: quarantined` | r/x is quarantined | not_found |
 * | 403, another reason (gold_only…) | r/x cannot be read, with Reddit's reason | not_found |
 * | 404 `reason: banned` | r/x was banned by Reddit | not_found |
 * | 404, or a redirect to the subreddit search | r/x does not exist | not_found |
 * | 401 | (the app token: renewed once, then) Reddit refused the server's app credentials | not_configured |
 * | 429 | (generic) rate-limited, retry when `x-ratelimit-reset` says | rate_limited |
 * | 5xx | Reddit is not answering right now (REDDIT_ANSWERS) | upstream |
 */
export function redditRefusal(subreddit?: string) {
  return (answer: ProviderRefusal): SourceError | undefined => {
    const reason = reasonOf(answer);
    if (answer.status === 403) {
      if (reason === undefined) return serverBlocked();
      if (!subreddit) return undefined;
      if (reason === 'private')
        return new SourceError(
          'not_found',
          `r/${subreddit} is private: only its approved members can read it`,
          undefined,
          403,
        );
      if (reason === 'quarantined')
        return new SourceError(
          'not_found',
          `r/${subreddit} is quarantined: Reddit shows it only to signed-in people who chose to see it`,
          undefined,
          403,
        );
      return new SourceError(
        'not_found',
        `r/${subreddit} cannot be read: Reddit refuses it (${reason ?? 'forbidden'})`,
        undefined,
        403,
      );
    }
    if (answer.status === 404 && subreddit) {
      if (reason === 'banned')
        return new SourceError('not_found', `r/${subreddit} was banned by Reddit`, undefined, 404);
      return subredditMissing(subreddit);
    }
    return sameForEveryRequest(answer);
  };
}
