import { ACCOUNT_PROVIDER_LABELS, type AccountProvider } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';
import { SourceError } from '#server/sources/source-error';

/**
 * A connect flow that cannot go on. `message` is shown to the person (it travels in the redirect to the web
 * app); `reason` is a short code for the log; `detail` is the underlying error, of which only a summary is
 * logged. `returnTo` is the web app's page the flow came from, once known.
 */
export class AccountConnectError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly detail?: unknown,
    readonly returnTo?: string,
  ) {
    super(message);
  }

  because(detail: unknown) {
    return new AccountConnectError(this.reason, this.message, detail, this.returnTo);
  }

  /** The same failure, sent back to the page the flow started from. */
  backTo(returnTo: string) {
    return new AccountConnectError(this.reason, this.message, this.detail, returnTo);
  }
}

const label = (provider: AccountProvider) => ACCOUNT_PROVIDER_LABELS[provider];

export const accountErrors = {
  /** docs/design.md §4: credentials missing → the UI says the source is not configured on this server. */
  notConfigured: (provider: AccountProvider) =>
    new AppError(
      503,
      'ACCOUNT_PROVIDER_NOT_CONFIGURED',
      `${label(provider)} is not configured on this server`,
    ),
  connectNotConfigured: (provider: AccountProvider) =>
    new AccountConnectError('not_configured', `${label(provider)} is not configured on this server`),
  unavailable: (provider: AccountProvider) =>
    new AccountConnectError(
      'provider_unavailable',
      `${label(provider)} is not available right now. Please try again later.`,
    ),
  cancelled: (provider: AccountProvider) =>
    new AccountConnectError('access_denied', `Connecting your ${label(provider)} account was cancelled.`),
  failed: (provider: AccountProvider, reason = 'provider_error') =>
    new AccountConnectError(reason, `Connecting your ${label(provider)} account failed. Please try again.`),
  missingScope: (provider: AccountProvider) =>
    new AccountConnectError(
      'missing_scope',
      `${label(provider)} did not give access to your calendar. Connect again and allow it.`,
    ),
  invalidState: (provider: AccountProvider, reason = 'invalid_state') =>
    new AccountConnectError(
      reason,
      `This ${label(provider)} connection has expired or was already used. Please try again.`,
    ),
  tooManyAttempts: () =>
    new AccountConnectError('rate_limited', 'Too many attempts. Please wait a few minutes and try again.'),
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
