import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { type ContentCache, retryAfterSeconds } from '#server/platform/safe-fetch/content-cache';
import { FetchError, type HttpResponse, type SafeFetch } from '#server/platform/safe-fetch/types';
import type { ProviderHttp, ProviderRequest, ProviderTextResponse } from './provider-http';
import { SourceError } from './source-error';

export {
  type ContentCache,
  createMemoryContentCache,
  retryAfterSeconds,
} from '#server/platform/safe-fetch/content-cache';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/** The cache key of a request: method, normalised URL, body, and a hash of the credentials sent. */
export function cacheKeyOf(request: ProviderRequest): string {
  const url = new URL(String(request.url));
  url.hash = '';
  url.searchParams.sort();
  const headers = Object.entries(request.headers ?? {})
    .map(([name, value]) => `${name.toLowerCase()}:${value}`)
    .sort()
    .join('\n');
  const digest = createHash('sha256')
    .update(headers)
    .update('\0')
    .update(request.body ?? '')
    .digest('base64url');
  return `${request.method ?? 'GET'} ${url.href} ${digest}`;
}

/** Seconds from Cache-Control max-age / Expires, clamped to the request's bounds. */
export function lifetimeOf(request: ProviderRequest, response: HttpResponse, nowMs: number): number {
  if (request.cache === false || response.status !== 200) return 0;
  const { minSeconds = 60, maxSeconds = 3600, defaultSeconds = 300 } = request.cache ?? {};
  const cacheControl = response.headers['cache-control'] ?? '';
  let seconds = defaultSeconds;
  const maxAge = /max-age=(\d+)/i.exec(cacheControl);
  if (maxAge?.[1]) seconds = Number(maxAge[1]);
  else if (response.headers.expires) {
    const expires = Date.parse(response.headers.expires);
    if (!Number.isNaN(expires)) seconds = Math.round((expires - nowMs) / 1000);
  }
  return Math.min(maxSeconds, Math.max(minSeconds, seconds));
}

/**
 * The answer with a `retry-after` header from the provider's own rate-limit header (`request.retryAfter`),
 * for a 429 or 503 that carries none, so every later reader (both caches, the error) sees one convention.
 */
function withRetryAfter(request: ProviderRequest, response: HttpResponse, nowMs: number): HttpResponse {
  if (!request.retryAfter || response.headers['retry-after'] !== undefined) return response;
  if (response.status !== 429 && response.status !== 503) return response;
  const seconds = request.retryAfter(response.headers, nowMs);
  if (seconds === undefined || !Number.isFinite(seconds)) return response;
  const header = String(Math.max(0, Math.ceil(seconds)));
  return { ...response, headers: { ...response.headers, 'retry-after': header } };
}

function errorForStatus(request: ProviderRequest, response: HttpResponse, nowMs: number): SourceError {
  const { status } = response;
  const provider = request.provider;
  const own = request.refusal?.({
    status,
    headers: response.headers,
    body: response.body.toString('utf8'),
    retryAfterSeconds: retryAfterSeconds(response, nowMs),
  });
  if (own) return own;
  if (status === 404 || status === 410)
    return new SourceError('not_found', `${provider} answered ${status}: not found`, undefined, status);
  if (status === 429) {
    const retry = retryAfterSeconds(response, nowMs);
    const when = retry === undefined ? 'later' : `in ${retry} s`;
    return new SourceError(
      'rate_limited',
      `${provider} answered 429: rate-limited, retry ${when}`,
      retry,
      status,
    );
  }
  if (status === 401 || status === 403) {
    return new SourceError(
      'unauthorized',
      `${provider} answered ${status}: access refused`,
      undefined,
      status,
    );
  }
  const retry = status === 503 ? retryAfterSeconds(response, nowMs) : undefined;
  if (retry !== undefined)
    return new SourceError(
      'upstream',
      `${provider} answered 503: unavailable, retry in ${retry} s`,
      retry,
      status,
    );
  return new SourceError('upstream', `${provider} answered ${status}`, undefined, status);
}

/**
 * Every way of not reaching the provider — a refused port, a private address, a name that does not resolve,
 * a refused connection, no answer in time — gets the same kind, status and message. Different ones would let
 * a user map a network through the preview: "refused" against "timed out" is a port scan.
 */
const unreachable = (provider: string) => new SourceError('unreachable', `${provider} could not be reached`);

function errorForFetch(provider: string, error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  if (error instanceof FetchError) {
    switch (error.code) {
      case 'too_large':
        return new SourceError('too_large', `${provider} answered with too much data`);
      case 'bad_url':
        return new SourceError('blocked', `${provider}: ${error.message}`);
      case 'too_many_redirects':
        return new SourceError('upstream', `${provider} redirected too many times`);
      default:
        return unreachable(provider);
    }
  }
  return unreachable(provider);
}

export interface ProviderHttpDeps {
  safeFetch: SafeFetch;
  cache: ContentCache;
  now?: () => number;
}

export function createProviderHttp(deps: ProviderHttpDeps): ProviderHttp {
  const now = deps.now ?? Date.now;

  async function fetchOk(request: ProviderRequest): Promise<HttpResponse> {
    const load = async (validators: Record<string, string> = {}) =>
      withRetryAfter(
        request,
        await deps.safeFetch({
          url: String(request.url),
          method: request.method ?? 'GET',
          headers: { ...request.headers, ...validators },
          body: request.body,
          timeoutMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBytes: request.maxBytes ?? DEFAULT_MAX_BYTES,
        }),
        now(),
      );
    let response: HttpResponse;
    try {
      response =
        request.cache === false
          ? await load()
          : await deps.cache.get(cacheKeyOf(request), load, (answer) => lifetimeOf(request, answer, now()), {
              shared: !request.private,
            });
    } catch (error) {
      throw errorForFetch(request.provider, error);
    }
    if (response.status < 200 || response.status > 299) throw errorForStatus(request, response, now());
    return response;
  }

  return {
    async json<T>(request: ProviderRequest, schema: z.ZodType<T>): Promise<T> {
      const response = await fetchOk(request);
      let value: unknown;
      try {
        value = JSON.parse(response.body.toString('utf8'));
      } catch {
        throw new SourceError(
          'invalid_response',
          `${request.provider} answered with something that is not JSON`,
        );
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        throw new SourceError('invalid_response', `${request.provider} answered in an unexpected shape`);
      }
      return parsed.data;
    },
    async text(request: ProviderRequest): Promise<ProviderTextResponse> {
      const response = await fetchOk(request);
      return {
        body: response.body.toString('utf8'),
        bytes: response.body,
        url: response.url,
        contentType: response.headers['content-type'] ?? '',
        ...(response.movedTo ? { movedTo: response.movedTo } : {}),
      };
    },
  };
}
