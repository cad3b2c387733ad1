import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { sourceCache } from '#server/db/schema';
import type { Logger } from '../logger';
import {
  type ContentCache,
  createMemoryContentCache,
  DEFAULT_MAX_RETRY_AFTER_SECONDS,
  renewed,
  retryAfterSeconds,
  type Validators,
  validatorsOf,
} from './content-cache';
import type { HttpResponse } from './types';

export interface SharedContentCacheOptions {
  db: Database;
  logger: Logger;
  now?: () => number;
  /** The first tier; by default a memory cache on the same clock. */
  memory?: ContentCache;
  /** Larger answers stay in memory only: the table is for feeds and API answers, not downloads. */
  maxBodyBytes?: number;
  maxRetryAfterSeconds?: number;
  /** Longest wait for the database before fetching without it. */
  databaseTimeoutMs?: number;
  /**
   * Brings the table back within its bounds (the housekeeping purge). Run after every `trimEveryWrites`
   * writes as well as on its schedule, so a burst of new URLs cannot grow the table far past its bound.
   */
  trim?: () => Promise<unknown>;
  trimEveryWrites?: number;
  /**
   * How long a process's claim on a key it is fetching holds other processes back (they wait for its row
   * instead of fetching too); past it they fetch themselves. The build gives a source 30 s.
   */
  claimMs?: number;
  /** Waiting for another process's row: the first re-read after this, then each wait 1.5 × longer, up to 1 s. */
  claimPollMs?: number;
}

const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
const DEFAULT_DATABASE_TIMEOUT_MS = 2_000;
const DEFAULT_TRIM_EVERY_WRITES = 100;
const DEFAULT_CLAIM_MS = 30_000;
const DEFAULT_CLAIM_POLL_MS = 100;
const MAX_CLAIM_POLL_MS = 1_000;
/**
 * A row with this status is a claim, not an answer: a process is fetching the key (no HTTP answer has
 * status 0). It is never served; the fetcher's row replaces it, or it is deleted when the fetch stores
 * nothing, or it expires.
 */
const CLAIM_STATUS = 0;
/** What a row keeps of the response headers: what the caches and the connectors read, nothing else. */
const STORED_HEADERS = ['content-type', 'etag', 'last-modified', 'cache-control', 'expires', 'retry-after'];

type Row = typeof sourceCache.$inferSelect;

/** The row's primary key: a hash, so the table never holds the URL or credential hash of the key. */
function sourceCacheKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The URL a key names (`METHOD URL credentials-hash`, see cacheKeyOf), normalised as the key does. */
function requestedUrlOf(key: string): string | undefined {
  const [, url] = key.split(' ');
  return url && URL.canParse(url) ? url : undefined;
}

function normalised(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  parsed.searchParams.sort();
  return parsed.href;
}

/**
 * The final URL when a redirect changed it, else null: the URL requested may carry an API key in its
 * query (YouTube's `key=`), which the key hashes and the row must not hold in clear.
 */
function storedUrlOf(key: string, finalUrl: string): string | null {
  const requested = requestedUrlOf(key);
  if (requested && URL.canParse(finalUrl) && normalised(finalUrl) === requested) return null;
  return finalUrl;
}

function storedHeadersOf(response: HttpResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function answerOf(key: string, row: Row): HttpResponse {
  return {
    status: row.status,
    url: row.url ?? requestedUrlOf(key) ?? '',
    headers: row.headers,
    body: row.body,
    ...(row.movedTo ? { movedTo: row.movedTo } : {}),
  };
}

/**
 * Two tiers: each process's memory cache (single-flight, LRU) in front of the `source_cache` table, so
 * worker processes and restarts share what was fetched. On a memory miss a fresh row answers without a
 * fetch, a stale row with validators is revalidated by a conditional GET (304 renews it), and a remembered
 * Retry-After fails fast. Only what the memory tier would keep is written, never above `maxBodyBytes`.
 * The database only ever saves fetches: when it fails or is slow, the cache logs and fetches without it.
 */
export function createSharedContentCache(options: SharedContentCacheOptions): ContentCache {
  const { db, logger } = options;
  const now = options.now ?? Date.now;
  const memory = options.memory ?? createMemoryContentCache({ now });
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS;
  const timeoutMs = options.databaseTimeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  const trimEveryWrites = options.trimEveryWrites ?? DEFAULT_TRIM_EVERY_WRITES;
  const claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
  const claimPollMs = options.claimPollMs ?? DEFAULT_CLAIM_POLL_MS;
  let writes = 0;
  /** Lifetimes already known for answers handed to the memory tier: a row's is what remains of it. */
  const lifetimes = new WeakMap<HttpResponse, number>();

  async function guarded<T>(
    what: string,
    keyHash: string,
    operation: () => Promise<T>,
  ): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([operation(), timeout]);
    } catch (error) {
      // The key is not logged: its URL may carry an API key.
      logger.warn({ err: error, keyHash }, `content cache: ${what} the database failed, fetching without it`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The row, undefined when there is none, null when the database failed. */
  async function read(keyHash: string): Promise<Row | undefined | null> {
    const rows = await guarded('reading', keyHash, () =>
      db.select().from(sourceCache).where(eq(sourceCache.keyHash, keyHash)),
    );
    return rows === undefined ? null : rows[0];
  }

  /** Upserts the row; an older answer (another process was slower) never replaces a newer one. */
  async function write(
    keyHash: string,
    key: string,
    response: HttpResponse,
    times: { fetchedAt: number; expiresAt: number; retryAfterUntil?: number },
  ) {
    if (response.body.length > maxBodyBytes) return;
    const url = storedUrlOf(key, response.url);
    const headers = storedHeadersOf(response);
    const row = {
      keyHash,
      status: response.status,
      url,
      movedTo: response.movedTo ?? null,
      headers,
      body: response.body,
      fetchedAt: new Date(times.fetchedAt),
      expiresAt: new Date(times.expiresAt),
      retryAfterUntil: times.retryAfterUntil === undefined ? null : new Date(times.retryAfterUntil),
      size: response.body.length + JSON.stringify(headers).length + (url?.length ?? 0),
    };
    await guarded('writing to', keyHash, () =>
      db
        .insert(sourceCache)
        .values(row)
        .onConflictDoUpdate({
          target: sourceCache.keyHash,
          set: {
            status: sql`excluded.status`,
            url: sql`excluded.url`,
            movedTo: sql`excluded.moved_to`,
            headers: sql`excluded.headers`,
            body: sql`excluded.body`,
            fetchedAt: sql`excluded.fetched_at`,
            expiresAt: sql`excluded.expires_at`,
            retryAfterUntil: sql`excluded.retry_after_until`,
            size: sql`excluded.size`,
          },
          setWhere: sql`excluded.fetched_at >= ${sourceCache.fetchedAt}`,
        }),
    );
    writes += 1;
    if (options.trim && writes % trimEveryWrites === 0) {
      const { trim } = options;
      void guarded('trimming', keyHash, () => trim());
    }
  }

  /** When a 429/503's Retry-After window ends (bounded), or undefined for any other answer. */
  function rateLimitUntil(response: HttpResponse, at: number): number | undefined {
    if (response.status !== 429 && response.status !== 503) return undefined;
    const seconds = retryAfterSeconds(response, at);
    return seconds ? at + Math.min(seconds, maxRetryAfter) * 1000 : undefined;
  }

  /**
   * Claims a key no row holds yet: 'claimed' when this process inserted the claim and fetches, 'taken'
   * when another process's row (a claim or an answer) got there first, undefined when the database failed.
   */
  async function claim(keyHash: string): Promise<'claimed' | 'taken' | undefined> {
    const at = now();
    const inserted = await guarded('claiming in', keyHash, () =>
      db
        .insert(sourceCache)
        .values({
          keyHash,
          status: CLAIM_STATUS,
          url: null,
          movedTo: null,
          headers: {},
          body: Buffer.alloc(0),
          fetchedAt: new Date(at),
          expiresAt: new Date(at + claimMs),
          retryAfterUntil: null,
          size: 0,
        })
        .onConflictDoNothing({ target: sourceCache.keyHash })
        .returning({ keyHash: sourceCache.keyHash }),
    );
    if (inserted === undefined) return undefined;
    return inserted.length > 0 ? 'claimed' : 'taken';
  }

  /** Gives up a claim whose fetch stored nothing, so waiting processes fetch at once instead of at its end. */
  async function unclaim(keyHash: string) {
    await guarded('unclaiming in', keyHash, () =>
      db
        .delete(sourceCache)
        .where(and(eq(sourceCache.keyHash, keyHash), eq(sourceCache.status, CLAIM_STATUS))),
    );
  }

  /**
   * Waits while another process holds a claim on the key: its row once it is written (or a remembered
   * Retry-After), or undefined when the claim went, expired or the database failed (then this one fetches).
   */
  async function awaitClaim(keyHash: string): Promise<Row | undefined> {
    let wait = claimPollMs;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(MAX_CLAIM_POLL_MS, wait * 1.5);
      const row = await read(keyHash);
      if (!row || row.expiresAt.getTime() <= now()) return undefined;
      if (row.status !== CLAIM_STATUS) return row;
    }
  }

  /** The memory tier's load: the row if it answers, else the provider, written back to the row. */
  async function loadThroughDatabase(
    key: string,
    memoryValidators: Validators,
    load: (validators: Validators) => Promise<HttpResponse>,
    lifetimeSeconds: (response: HttpResponse) => number,
  ): Promise<HttpResponse> {
    const keyHash = sourceCacheKeyHash(key);
    const found = await read(keyHash);
    let row = found ?? undefined;
    // No row yet: one process claims the key and fetches; the others wait for its row instead of all
    // fetching at once (two workers starting a burst fetched one feed in ten twice). Not when the
    // database just failed: then this process fetches without it.
    let claimed = false;
    if (found !== null && (!row || (row.status === CLAIM_STATUS && row.expiresAt.getTime() > now()))) {
      const outcome = row ? 'taken' : await claim(keyHash);
      claimed = outcome === 'claimed';
      if (outcome === 'taken') row = await awaitClaim(keyHash);
    }
    if (row?.status === CLAIM_STATUS) row = undefined;
    if (!claimed) return answerFromRowOrProvider(key, keyHash, row, memoryValidators, load, lifetimeSeconds);
    try {
      return await answerFromRowOrProvider(key, keyHash, undefined, memoryValidators, load, lifetimeSeconds);
    } finally {
      // A no-op once the answer's row replaced the claim; otherwise (nothing stored, a failure) it goes.
      await unclaim(keyHash);
    }
  }

  /** A fresh row answers; otherwise the provider (revalidating the row when it can), written back. */
  async function answerFromRowOrProvider(
    key: string,
    keyHash: string,
    row: Row | undefined,
    memoryValidators: Validators,
    load: (validators: Validators) => Promise<HttpResponse>,
    lifetimeSeconds: (response: HttpResponse) => number,
  ): Promise<HttpResponse> {
    const readAt = now();
    if (row?.retryAfterUntil) {
      const remaining = Math.ceil((row.retryAfterUntil.getTime() - readAt) / 1000);
      if (remaining > 0) {
        const limited = answerOf(key, row);
        return { ...limited, headers: { ...limited.headers, 'retry-after': String(remaining) } };
      }
    }
    const stored = row && !row.retryAfterUntil ? answerOf(key, row) : undefined;
    if (stored && row && row.expiresAt.getTime() > readAt) {
      lifetimes.set(stored, (row.expiresAt.getTime() - readAt) / 1000);
      return stored;
    }

    // The row's validators when it has some: it is at least as recent as this process's stale copy.
    const rowValidators = validatorsOf(stored);
    const revalidatesRow = stored !== undefined && Object.keys(rowValidators).length > 0;
    const response = await load(revalidatesRow ? rowValidators : memoryValidators);
    const fetchedAt = now();
    if (response.status === 304 && revalidatesRow) {
      const copy = renewed(stored, response);
      const seconds = Math.max(0, lifetimeSeconds(copy));
      lifetimes.set(copy, seconds);
      await write(keyHash, key, copy, { fetchedAt, expiresAt: fetchedAt + seconds * 1000 });
      return copy;
    }
    const limitedUntil = rateLimitUntil(response, fetchedAt);
    if (limitedUntil !== undefined) {
      // Only the window is kept, never the body: a hostile host could answer large 429s to fill the table.
      const slim: HttpResponse = { ...response, headers: {}, body: Buffer.alloc(0) };
      await write(keyHash, key, slim, {
        fetchedAt,
        expiresAt: limitedUntil,
        retryAfterUntil: limitedUntil,
      });
      return response;
    }
    if (response.status === 304) return response; // this process's stale copy is renewed by the memory tier
    const seconds = lifetimeSeconds(response);
    lifetimes.set(response, seconds);
    if (seconds > 0)
      await write(keyHash, key, response, { fetchedAt, expiresAt: fetchedAt + seconds * 1000 });
    return response;
  }

  return {
    get(key, load, lifetimeSeconds, cacheOptions) {
      if (cacheOptions?.shared === false) return memory.get(key, load, lifetimeSeconds);
      const lifetime = (response: HttpResponse) => lifetimes.get(response) ?? lifetimeSeconds(response);
      return memory.get(key, (validators) => loadThroughDatabase(key, validators, load, lifetime), lifetime);
    },
  };
}
