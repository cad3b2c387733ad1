import {
  type AccessToken,
  accessTokenSchema,
  apiErrorBodySchema,
  SESSION_REQUEST_HEADER,
} from '@digest/contracts';
import * as z from 'zod/mini';
import { API_BASE, API_TIMEOUT_MS } from './config';
import {
  endSession,
  failAuth,
  finishRestoring,
  getToken,
  onOtherTabSession,
  replaceToken,
} from './session/session';

/** A failed API call; `message` is the server's own message (docs/product.md §8) or a readable fallback. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no response arrived (network failure or timeout). */
  readonly status: number;
  readonly code: string | undefined;

  constructor(message: string, status: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again.';
export const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';
export const UNEXPECTED_MESSAGE = 'Something went wrong. Please try again.';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: Method;
  /** Sent as JSON, as multipart/form-data when it is a FormData, as its bytes when it is a Blob (a File). */
  body?: unknown;
  /** Resolves with the body as a Blob (a file to download) instead of reading it as JSON. */
  blob?: boolean;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * Sends the stored access token (default). On a 401 the session is refreshed once and the call
   * retried; when the refresh is refused the session ends. Sign-in and friends pass `false`.
   */
  auth?: boolean;
  /** Cancels the call (e.g. TanStack Query's signal). */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** When given, the response body is checked against it (a classic or a mini zod schema). */
  schema?: z.core.$ZodType<T>;
}

/**
 * Calls `API_BASE + path` and resolves with the JSON body; throws `ApiError` on any failure.
 * docs/product.md §7: an authenticated call answered 401 refreshes the token once and is retried; a refused refresh
 * ends the session (the route guards then show /login).
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const token = options.auth === false ? null : getToken();
  try {
    return await send(path, options, token?.accessToken);
  } catch (error) {
    if (!token || !(error instanceof ApiError) || error.status !== 401) throw error;
    const fresh = await refreshAfterUnauthorized(token, error);
    return send(path, options, fresh.accessToken);
  }
}

const refreshResponseSchema = z.object({ token: accessTokenSchema });
let refreshing: Promise<AccessToken | null> | null = null;

/**
 * A call made with `used` got a 401. If the token has changed since (another call refreshed it), retry
 * with the new one; otherwise refresh. Rejects with the 401 when the session is over.
 */
async function refreshAfterUnauthorized(used: AccessToken, unauthorized: ApiError): Promise<AccessToken> {
  const current = getToken();
  if (!current) throw unauthorized;
  if (current.accessToken !== used.accessToken) return current;
  const fresh = await refreshAccessToken();
  if (!fresh) throw unauthorized;
  return fresh;
}

/** The name of the lock that lets one tab at a time use the refresh cookie. */
const REFRESH_LOCK = 'digest-session-refresh';

/**
 * One tab at a time: each refresh spends the cookie's token and sets the next, so two tabs presenting the
 * same token at once would look like a stolen token. Browsers without the Web Locks API (or outside a
 * secure context) go ahead at once; the server forgives a second use within a few seconds for them.
 */
async function oneTabAtATime<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? await locks.request(REFRESH_LOCK, work) : work();
}

/**
 * Asks the server, with the HttpOnly refresh cookie, for a new access token; one refresh at a time in this
 * tab (calls that fail together share it) and across tabs. Resolves with the token, or null when there is
 * no session (which then ends here). A network failure or a 5xx keeps the session and rejects, so a flaky
 * connection does not log anyone out.
 */
export function refreshAccessToken(): Promise<AccessToken | null> {
  if (!refreshing) {
    const had = getToken();
    refreshing = oneTabAtATime(() =>
      send(
        '/auth/refresh',
        { method: 'POST', headers: { [SESSION_REQUEST_HEADER]: '1' }, schema: refreshResponseSchema },
        undefined,
      ),
    )
      .then(({ token }) => {
        replaceToken(token);
        return token;
      })
      .catch((error: unknown) => {
        if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) throw error;
        // The server refused: the session is over, unless a sign-in replaced it meanwhile. The person is
        // told why ('Token revoked!', expired), except when there simply was none (NO_SESSION, on load).
        const current = getToken();
        if (current && current.accessToken !== had?.accessToken) return null;
        if (current) endSession();
        if (error.code !== 'NO_SESSION') failAuth(error.message);
        return null;
      })
      .finally(() => {
        refreshing = null;
        finishRestoring();
      });
  }
  return refreshing;
}

/** On load: the access token of the session the refresh cookie holds, if any (docs/product.md §3). */
export function restoreSession(): void {
  refreshAccessToken().catch(() => {
    // No answer (offline, server down): the app shows the signed-out screens; a reload tries again.
  });
}

// Another tab signed in: this one gets its own access token for that session (the user may have changed,
// so this tab's state goes first). Another tab signed out: so does this one.
onOtherTabSession((event) => {
  endSession({ announce: false, restoring: event === 'signed-in' });
  if (event === 'signed-in') restoreSession();
});

async function send<T>(
  path: string,
  options: RequestOptions<T>,
  accessToken: string | undefined,
): Promise<T> {
  const { method = 'GET', body, signal, timeoutMs = API_TIMEOUT_MS, schema } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener('abort', forwardAbort, { once: true });

  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  const isBlob = typeof Blob !== 'undefined' && body instanceof Blob;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined && !isForm && !isBlob) headers['Content-Type'] = 'application/json';
  if (isBlob && !headers['Content-Type']) headers['Content-Type'] = 'application/octet-stream';
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;

  try {
    let response: Response;
    let data: unknown;
    try {
      response = await fetch(`${API_BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? null : isForm || isBlob ? body : JSON.stringify(body),
        signal: controller.signal,
        credentials: 'same-origin',
      });
      data = options.blob && response.ok ? await response.blob() : await readBody(response);
    } catch (error) {
      if (timedOut) throw new ApiError(TIMEOUT_MESSAGE, 0, 'TIMEOUT');
      if (signal?.aborted) throw error;
      if (error instanceof ApiError) throw error;
      throw new ApiError(NETWORK_MESSAGE, 0, 'NETWORK_ERROR');
    }

    if (!response.ok) throw toApiError(response.status, data);
    if (!schema) return data as T;
    const parsed = z.safeParse(schema, data);
    if (!parsed.success) throw new ApiError(UNEXPECTED_MESSAGE, response.status, 'BAD_RESPONSE');
    return parsed.data;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(UNEXPECTED_MESSAGE, response.status, 'BAD_RESPONSE');
  }
}

function toApiError(status: number, data: unknown): ApiError {
  const parsed = apiErrorBodySchema.safeParse(data);
  if (parsed.success && parsed.data.message.trim() !== '') {
    return new ApiError(parsed.data.message, status, parsed.data.code);
  }
  return new ApiError(`${UNEXPECTED_MESSAGE} (HTTP ${status})`, status);
}

/** The text to show a person for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return UNEXPECTED_MESSAGE;
}

export const api = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
