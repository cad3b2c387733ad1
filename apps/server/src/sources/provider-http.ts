import type { z } from 'zod';
import type { SourceError } from './source-error';

/**
 * How a connector calls its provider: one request in, parsed content out, every failure turned into a
 * SourceError whose message says what failed (timeout, 404, 429 with when to retry, …). GETs go through
 * the shared content cache with single-flight, so many digests reading one feed cause one upstream fetch.
 */
export interface ProviderRequest {
  /** Shown in error messages: 'Open-Meteo', 'Reddit', 'the feed', … */
  provider: string;
  url: string | URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Caching of this answer (GET and idempotent POSTs such as GraphQL reads). `false` for answers that
   * must not be shared or reused. The lifetime follows the provider's Cache-Control / Expires within
   * [minSeconds, maxSeconds]; `defaultSeconds` when the provider says nothing.
   */
  cache?: false | { minSeconds?: number; maxSeconds?: number; defaultSeconds?: number };
  /**
   * The answer is one user's own data, read with their connected account's token: it may be reused by
   * this process (the key includes the token's hash) but is never written to the shared source_cache.
   */
  private?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * The provider's own table of refusals: its statuses and error bodies to the product's messages (blocked
   * or rate-limited, needs a paid tier, account must be reconnected, not found, provider down), read before
   * the generic message of a status, so a 403 that means "rate-limited" is not told as "access refused".
   * Undefined for an answer the generic reading (status only) says well enough. A table of rows
   * (account-refusal.ts `ProviderAnswers`) becomes one with `refusalFrom`.
   */
  refusal?: (answer: ProviderRefusal) => SourceError | undefined;
  /**
   * Seconds until a 429 (or 503) may be retried, for a provider that says so in a header of its own
   * instead of Retry-After: each names and counts it its own way (an epoch second, seconds from now).
   * Read before the answer reaches the cache, which then holds off for as long as the provider asked.
   */
  retryAfter?: (headers: Record<string, string>, nowMs: number) => number | undefined;
}

/** A failed answer as a provider's refusal table reads it (the body as UTF-8; empty for a remembered 429). */
export interface ProviderRefusal {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** When the answer says to retry (Retry-After, or the provider's own header read by `retryAfter`). */
  retryAfterSeconds?: number;
}

export interface ProviderTextResponse {
  /** The body read as UTF-8. */
  body: string;
  /** The body as received, for answers in another encoding (feeds declare theirs in the XML). */
  bytes: Buffer;
  /** After redirects. */
  url: string;
  contentType: string;
  /** Where the address moved for good (its permanent redirects led there), when it answered one. */
  movedTo?: string;
}

export interface ProviderHttp {
  /** Parses the JSON answer with `schema`; a shape that does not match is an `invalid_response`. */
  json<T>(request: ProviderRequest, schema: z.ZodType<T>): Promise<T>;
  text(request: ProviderRequest): Promise<ProviderTextResponse>;
}
