import {
  ACCOUNT_PROVIDER_LABELS,
  type AccountProvider,
  connectAccountMessage,
  type FlowErrorCode,
} from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';
import { SourceError } from '#server/sources/source-error';

/**
 * A connect flow that cannot go on. `code` is all the web app is told (in the redirect's `?error=`; it shows
 * the text of that code, see connectAccountMessage); `message` is that text, for the log and tests; `reason`
 * is a finer code for the log; `detail` is the underlying error, of which only a summary is logged.
 * `returnTo` is the web app's page the flow came from, once known.
 */
export class AccountConnectError extends Error {
  constructor(
    readonly reason: string,
    readonly code: FlowErrorCode,
    message: string,
    readonly detail?: unknown,
    readonly returnTo?: string,
  ) {
    super(message);
  }

  because(detail: unknown) {
    return new AccountConnectError(this.reason, this.code, this.message, detail, this.returnTo);
  }

  /** The same failure, sent back to the page the flow started from. */
  backTo(returnTo: string) {
    return new AccountConnectError(this.reason, this.code, this.message, this.detail, returnTo);
  }
}

const label = (provider: AccountProvider) => ACCOUNT_PROVIDER_LABELS[provider];

const connectError = (reason: string, code: FlowErrorCode, provider?: AccountProvider) =>
  new AccountConnectError(reason, code, connectAccountMessage(code, provider ? label(provider) : ''));

export const accountErrors = {
  /** docs/design.md §4: credentials missing → the UI says the source is not configured on this server. */
  notConfigured: (provider: AccountProvider) =>
    new AppError(
      503,
      'ACCOUNT_PROVIDER_NOT_CONFIGURED',
      `${label(provider)} is not configured on this server`,
    ),
  connectNotConfigured: (provider: AccountProvider) =>
    connectError('not_configured', 'not_configured', provider),
  unavailable: (provider: AccountProvider) => connectError('provider_unavailable', 'unavailable', provider),
  cancelled: (provider: AccountProvider) => connectError('access_denied', 'cancelled', provider),
  failed: (provider: AccountProvider, reason = 'provider_error') => connectError(reason, 'failed', provider),
  missingScope: (provider: AccountProvider) => connectError('missing_scope', 'missing_scope', provider),
  invalidState: (provider: AccountProvider, reason = 'invalid_state') =>
    connectError(reason, 'expired', provider),
  tooManyAttempts: () => connectError('rate_limited', 'rate_limited'),
  accountNotFound: () => new AppError(404, 'ACCOUNT_NOT_FOUND', 'No such connected account.'),
  notConnected: () => new SourceError('not_connected', 'This source is not connected yet.'),
  reconnect: (provider: AccountProvider) =>
    new SourceError(
      'not_connected',
      `${label(provider)} no longer accepts the connected account: connect it again on the Connected accounts page.`,
    ),
  refreshFailed: (provider: AccountProvider, timedOut: boolean) =>
    new SourceError(
      timedOut ? 'timeout' : 'upstream',
      `Could not renew access to your ${label(provider)} account: ${label(provider)} ${
        timedOut ? 'did not answer in time' : 'answered with an error'
      }. Please try again.`,
    ),
};
