import { jsonOf } from './account-refusal';

/**
 * The reasons a Google API error body names (Calendar and YouTube Data API alike): each `errors[].reason`
 * ('rateLimitExceeded', 'quotaExceeded', 'insufficientPermissions' …), the gRPC `status`
 * ('PERMISSION_DENIED' …) and each `details[].reason` of an ErrorInfo ('SERVICE_DISABLED',
 * 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' …). https://developers.google.com/calendar/api/guides/errors
 */
export function googleErrorReasons(body: string): string[] {
  const error = (jsonOf(body) as { error?: unknown } | undefined)?.error;
  if (!error || typeof error !== 'object') return [];
  const { errors, status, details } = error as { errors?: unknown; status?: unknown; details?: unknown };
  const reasonsIn = (list: unknown) =>
    Array.isArray(list)
      ? list.flatMap((item) =>
          item && typeof item === 'object' && typeof item.reason === 'string' ? [item.reason as string] : [],
        )
      : [];
  return [...reasonsIn(errors), ...reasonsIn(details), ...(typeof status === 'string' ? [status] : [])];
}
