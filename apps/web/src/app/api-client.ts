import { apiErrorBodySchema } from '@digest/contracts';
import type { z } from 'zod';
import { API_BASE, API_TIMEOUT_MS } from './config';

/** A failed API call; `message` is the server's own message (SPEC §8) or a readable fallback. */
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
  /** Sent as JSON. */
  body?: unknown;
  /** Cancels the call (e.g. TanStack Query's signal). */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** When given, the response body is checked against it. */
  schema?: z.ZodType<T>;
}

/** Calls `API_BASE + path` and resolves with the JSON body; throws `ApiError` on any failure. */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
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

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  try {
    let response: Response;
    let data: unknown;
    try {
      response = await fetch(`${API_BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
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
