import type { SourceErrorKind } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';

/**
 * Why one source could not give its content. The data-source API answers it with `status` and the
 * message; a build shows it in the source's block. One failing source never fails the whole request.
 */
export type SourceErrorCode = SourceErrorKind;

const STATUS: Record<SourceErrorCode, number> = {
  timeout: 504,
  not_found: 404,
  rate_limited: 429,
  not_connected: 409,
  not_configured: 503,
  unauthorized: 502,
  blocked: 422,
  unreachable: 502,
  too_large: 422,
  invalid_response: 502,
  invalid_request: 422,
  tier_required: 502,
  upstream: 502,
};

/** An AppError, so a route that lets it through answers `{ message, code: 'SOURCE_<KIND>' }` with its status. */
export class SourceError extends AppError {
  constructor(
    readonly kind: SourceErrorCode,
    message: string,
    /** For `rate_limited`: seconds until the provider accepts requests again (sent as Retry-After). */
    retryAfterSeconds?: number,
    /** The HTTP status the provider answered, when it answered one (a connector may read it: 400 = bad key…). */
    readonly providerStatus?: number,
  ) {
    super(STATUS[kind], `SOURCE_${kind.toUpperCase()}`, message, retryAfterSeconds);
    this.name = 'SourceError';
  }
}
