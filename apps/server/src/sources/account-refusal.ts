import type { ProviderRefusal } from './provider-http';
import { SourceError, type SourceErrorCode } from './source-error';

/**
 * For providers read with a connected account: a 401/403 means the stored grant no longer works (revoked,
 * scope removed, account closed), so the user has to connect the account again. Use as `.catch(…)`.
 */
export function reconnectOnRefusal(provider: string) {
  return (error: unknown): never => {
    if (error instanceof SourceError && error.kind === 'unauthorized') {
      throw new SourceError(
        'not_connected',
        `${provider} refused the connected account: reconnect your account`,
      );
    }
    throw error;
  };
}

/**
 * One row of a provider's table: an answer with this status (`5xx`: any of 500–599) and, when `reasons`
 * is given, one of these reasons in its error body, means `kind` with `message` for the user.
 */
export interface ProviderAnswerRow {
  status: number | '5xx';
  reasons?: readonly string[];
  kind: SourceErrorCode;
  /** What the user reads; `{status}` and `{retry}` ('in 30 s' or 'later') are filled in. */
  message: string;
}

/**
 * A provider's statuses and error bodies mapped to the product's messages (blocked or rate-limited, needs a
 * paid tier, reconnect the account, not found, provider down): `reasonsOf` reads the reasons its error body
 * names, the first matching row wins, an answer no row matches gets the generic message of its status.
 */
export interface ProviderAnswers {
  reasonsOf(body: string): string[];
  rows: readonly ProviderAnswerRow[];
}

/**
 * The product's "provider down": any 5xx is the provider's own failure, nothing the user or the server's
 * operator can fix, so every provider's table says it in the same words and the next issue tries again.
 */
export function providerDown(provider: string): ProviderAnswerRow {
  return {
    status: '5xx',
    kind: 'upstream',
    message: `${provider} is not answering right now (it answered {status}): try again later`,
  };
}

/** A provider's table as its request's `refusal`: the SourceError of the first matching row, else undefined. */
export function refusalFrom(answers: ProviderAnswers) {
  return (failure: ProviderRefusal): SourceError | undefined => {
    const reasons = answers.reasonsOf(failure.body);
    const row = answers.rows.find(
      (candidate) =>
        (candidate.status === '5xx'
          ? failure.status >= 500 && failure.status <= 599
          : candidate.status === failure.status) &&
        (!candidate.reasons || candidate.reasons.some((reason) => reasons.includes(reason))),
    );
    if (!row) return undefined;
    const retry = failure.retryAfterSeconds === undefined ? 'later' : `in ${failure.retryAfterSeconds} s`;
    const message = row.message.replace('{status}', String(failure.status)).replace('{retry}', retry);
    const retryAfter =
      row.kind === 'rate_limited' || row.kind === 'upstream' ? failure.retryAfterSeconds : undefined;
    return new SourceError(row.kind, message, retryAfter, failure.status);
  };
}

/** The JSON of an error body, or undefined when it is not JSON. */
export function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
