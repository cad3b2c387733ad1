import type { HttpResponse } from './types';

/** Request headers that make a load conditional on the stored copy (If-None-Match / If-Modified-Since). */
export type Validators = Record<string, string>;

/**
 * A shared cache of provider answers, so many digests reading one feed cause one upstream fetch.
 */
export interface ContentCache {
  /**
   * The cached answer under `key`, or `load()`'s. Concurrent calls with one key share one load.
   * `load` receives the validators of a stale copy to send; a 304 answer then renews that copy.
   * `lifetimeSeconds(response)` says how long a loaded answer may be reused (0: not at all).
   */
  get(
    key: string,
    load: (validators: Validators) => Promise<HttpResponse>,
    lifetimeSeconds: (response: HttpResponse) => number,
    options?: CacheOptions,
  ): Promise<HttpResponse>;
}

export interface CacheOptions {
  /** false: one user's private data, kept in this process only (never in a shared store). Default true. */
  shared?: boolean;
}

export interface MemoryContentCacheOptions {
  now?: () => number;
  /** Bound on the bytes held (bodies, headers and keys); least recently used entries go first. */
  maxBytes?: number;
  /** Longest Retry-After honoured, so a bogus header cannot shut a source off for days. */
  maxRetryAfterSeconds?: number;
}

interface Entry {
  response: HttpResponse;
  expiresAt: number;
  size: number;
}

interface RateLimit {
  response: HttpResponse;
  until: number;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Remembered rate limits (a few bytes each); the oldest go first beyond this many. */
const MAX_RATE_LIMITS = 10_000;
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 3600;
/** Headers a 304 may carry that update the stored copy (RFC 9111 §4.3.4), limited to what we use. */
const RENEWED_HEADERS = ['cache-control', 'expires', 'date', 'etag', 'last-modified'];

function sizeOf(key: string, response: HttpResponse): number {
  let size = key.length + response.url.length + response.body.length;
  for (const [name, value] of Object.entries(response.headers)) size += name.length + value.length;
  return size;
}

/** The conditional request headers a stored copy allows. */
export function validatorsOf(stored: HttpResponse | undefined): Validators {
  const validators: Validators = {};
  if (stored?.headers.etag) validators['if-none-match'] = stored.headers.etag;
  if (stored?.headers['last-modified']) validators['if-modified-since'] = stored.headers['last-modified'];
  return validators;
}

/** The stored copy with what a 304 answer updates. */
export function renewed(stored: HttpResponse, notModified: HttpResponse): HttpResponse {
  const headers = { ...stored.headers };
  for (const name of RENEWED_HEADERS) {
    const value = notModified.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  // Where the address leads now is what the conditional request's own redirects said.
  const { movedTo: _before, ...rest } = stored;
  return notModified.movedTo === undefined
    ? { ...rest, headers }
    : { ...rest, headers, movedTo: notModified.movedTo };
}

/**
 * Retry-After as seconds (delta or HTTP date), or undefined. A provider's own rate-limit headers
 * (X's `x-rate-limit-reset`, an epoch second; Reddit's `x-ratelimit-reset`, seconds from now) differ in
 * meaning from one provider to the next: each client turns its own into Retry-After (ProviderRequest
 * `retryAfter`), never this function by guessing from a header name.
 */
export function retryAfterSeconds(response: HttpResponse, nowMs: number): number | undefined {
  const value = response.headers['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * In memory, per process: single-flight, LRU bounded by bytes, stale copies kept while they can be
 * revalidated, failed loads never stored, and a 429/503 Retry-After answered from memory until it passes.
 */
export function createMemoryContentCache(options: MemoryContentCacheOptions = {}): ContentCache {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS;
  /** Map order is recency: the first entry is the least recently used. */
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<HttpResponse>>();
  const rateLimits = new Map<string, RateLimit>();
  let bytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.size;
  }

  function store(key: string, response: HttpResponse, seconds: number) {
    remove(key);
    const size = sizeOf(key, response);
    if (size > maxBytes) return;
    entries.set(key, { response, expiresAt: now() + seconds * 1000, size });
    bytes += size;
    for (const [oldest] of entries) {
      if (bytes <= maxBytes) break;
      remove(oldest);
    }
  }

  /** A stored copy that is still fresh, marked as just used. */
  function fresh(key: string): HttpResponse | undefined {
    const entry = entries.get(key);
    if (!entry || entry.expiresAt <= now()) return undefined;
    entries.delete(key);
    entries.set(key, entry);
    return entry.response;
  }

  /** The remembered 429/503 with Retry-After counting down, while its window lasts. */
  function rateLimited(key: string): HttpResponse | undefined {
    const limit = rateLimits.get(key);
    if (!limit) return undefined;
    const remaining = Math.ceil((limit.until - now()) / 1000);
    if (remaining <= 0) {
      rateLimits.delete(key);
      return undefined;
    }
    return { ...limit.response, headers: { ...limit.response.headers, 'retry-after': String(remaining) } };
  }

  /**
   * Only the status and the URL are kept, never the body or other headers: a hostile feed host could
   * otherwise answer every URL with a large 429 and have it held for an hour.
   */
  function rememberRateLimit(key: string, response: HttpResponse) {
    if (response.status !== 429 && response.status !== 503) return;
    const seconds = retryAfterSeconds(response, now());
    if (!seconds) return;
    rateLimits.delete(key);
    // Expired ones are dropped when read; a full memory is swept of the rest before the oldest goes (a
    // sweep on every insert made 10 000 hosts answering 429 cost 50 million comparisons).
    if (rateLimits.size >= MAX_RATE_LIMITS) {
      const at = now();
      for (const [other, limit] of rateLimits) if (limit.until <= at) rateLimits.delete(other);
    }
    for (const [oldest] of rateLimits) {
      if (rateLimits.size < MAX_RATE_LIMITS) break;
      rateLimits.delete(oldest);
    }
    const slim: HttpResponse = {
      status: response.status,
      url: response.url,
      headers: {},
      body: Buffer.alloc(0),
    };
    rateLimits.set(key, { response: slim, until: now() + Math.min(seconds, maxRetryAfter) * 1000 });
  }

  async function loadAndStore(
    key: string,
    load: (validators: Validators) => Promise<HttpResponse>,
    lifetimeSeconds: (response: HttpResponse) => number,
  ): Promise<HttpResponse> {
    const stale = entries.get(key);
    const validators = validatorsOf(stale?.response);
    const response = await load(validators);
    if (response.status === 304 && stale && Object.keys(validators).length > 0) {
      const copy = renewed(stale.response, response);
      store(key, copy, Math.max(0, lifetimeSeconds(copy)));
      return copy;
    }
    rememberRateLimit(key, response);
    const seconds = lifetimeSeconds(response);
    if (seconds > 0) store(key, response, seconds);
    else if (response.status >= 200 && response.status < 300) remove(key);
    return response;
  }

  return {
    get(key, load, lifetimeSeconds) {
      const cached = fresh(key) ?? rateLimited(key);
      if (cached) return Promise.resolve(cached);
      const running = inFlight.get(key);
      if (running) return running;
      const loading = loadAndStore(key, load, lifetimeSeconds).finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
  };
}
