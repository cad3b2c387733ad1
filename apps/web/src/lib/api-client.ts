import { apiErrorBodySchema, type TokenPair, tokenPairSchema } from '@digest/contracts';
import { z } from 'zod';
import { API_BASE, API_TIMEOUT_MS } from './config';
import { expireSession, getToken, replaceToken } from './session/session';

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
  /** Sent as JSON, or as multipart/form-data when it is a FormData. */
  body?: unknown;
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
  /** When given, the response body is checked against it. */
  schema?: z.ZodType<T>;
}

/**
 * Calls `API_BASE + path` and resolves with the JSON body; throws `ApiError` on any failure.
 * docs/product.md §7: an authenticated call answered 401 refreshes the token once and is retried; a refused refresh
 * clears the session (the route guards then show /login).
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

const refreshResponseSchema = z.object({ token: tokenPairSchema });
let refreshing: Promise<TokenPair> | null = null;

/**
 * A call made with `used` got a 401. If the pair has changed since (another call refreshed it), retry
 * with the new one; otherwise refresh, sharing one refresh between every call that failed meanwhile.
 */
function refreshAfterUnauthorized(used: TokenPair, unauthorized: ApiError): Promise<TokenPair> {
  const current = getToken();
  if (!current) return Promise.reject(unauthorized);
  if (current.accessToken !== used.accessToken) return Promise.resolve(current);
  if (!refreshing) {
    refreshing = refreshSession(current).finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

async function refreshSession(current: TokenPair): Promise<TokenPair> {
  try {
    const { token } = await send(
      '/auth/refresh',
      { method: 'POST', body: { refreshToken: current.refreshToken }, schema: refreshResponseSchema },
      undefined,
    );
    replaceToken(token);
    return token;
  } catch (error) {
    // The server refused the refresh token ('Token revoked!', expired…): the session is over. A network
    // failure or a 5xx keeps the session, so a flaky connection does not log anyone out.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      if (getToken()?.refreshToken === current.refreshToken) expireSession(error.message);
    }
    throw error;
  }
}

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
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;

  try {
    let response: Response;
    let data: unknown;
    try {
      response = await fetch(`${API_BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? null : isForm ? body : JSON.stringify(body),
        signal: controller.signal,
        credentials: 'same-origin',
      });
      data = await readBody(response);
    } catch (error) {
      if (timedOut) throw new ApiError(TIMEOUT_MESSAGE, 0, 'TIMEOUT');
      if (signal?.aborted) throw error;
      if (error instanceof ApiError) throw error;
      throw new ApiError(NETWORK_MESSAGE, 0, 'NETWORK_ERROR');
    }

    if (!response.ok) throw toApiError(response.status, data);
    if (!schema) return data as T;
    const parsed = schema.safeParse(data);
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
