import { describe, expect, it } from 'vitest';
import { createMemoryContentCache } from './content-cache';
import type { HttpResponse } from './types';

const KB = 1024;
const answer = (bytes: number): HttpResponse => ({
  status: 200,
  url: 'https://p.example/',
  headers: {},
  body: Buffer.alloc(bytes),
});

/** Loads of each key, counted, so the test sees which answers came from the cache. */
function counter() {
  const loads: string[] = [];
  return {
    loads,
    get: (cache: ReturnType<typeof createMemoryContentCache>, key: string, bytes = KB) =>
      cache.get(
        key,
        async () => {
          loads.push(key);
          return answer(bytes);
        },
        () => 300,
      ),
  };
}

describe('the memory content cache', () => {
  it('evicts the least recently used answers once the byte bound is passed', async () => {
    const cache = createMemoryContentCache({ maxBytes: 2.5 * KB });
    const { loads, get } = counter();
    await get(cache, 'a');
    await get(cache, 'b');
    await get(cache, 'a'); // a is now more recent than b
    await get(cache, 'c'); // over the bound: b goes
    await get(cache, 'a');
    await get(cache, 'c');
    await get(cache, 'b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not keep an answer larger than the whole bound', async () => {
    const cache = createMemoryContentCache({ maxBytes: 2 * KB });
    const { loads, get } = counter();
    await get(cache, 'small');
    await get(cache, 'huge', 4 * KB);
    await get(cache, 'huge', 4 * KB);
    await get(cache, 'small');
    expect(loads).toEqual(['small', 'huge', 'huge']);
  });

  it('lets a failed load fail every caller waiting on it, and tries again next time', async () => {
    const cache = createMemoryContentCache();
    let calls = 0;
    const load = async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
      return answer(1);
    };
    const results = await Promise.allSettled([1, 2, 3].map(() => cache.get('k', load, () => 300)));
    expect(results.map(({ status }) => status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await cache.get('k', load, () => 300)).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('honours Retry-After no longer than its bound', async () => {
    let nowMs = 0;
    const cache = createMemoryContentCache({ now: () => nowMs, maxRetryAfterSeconds: 60 });
    let calls = 0;
    const load = async (): Promise<HttpResponse> => {
      calls++;
      return { ...answer(0), status: 429, headers: { 'retry-after': '86400' } };
    };
    await cache.get('k', load, () => 0);
    nowMs += 59_000;
    expect((await cache.get('k', load, () => 0)).headers['retry-after']).toBe('1');
    nowMs += 1_000;
    await cache.get('k', load, () => 0);
    expect(calls).toBe(2);
  });

  it('remembers a rate limit without its body, so hostile 429s cannot fill the memory', async () => {
    const cache = createMemoryContentCache({ maxBytes: KB });
    const big = async (): Promise<HttpResponse> => ({
      ...answer(5 * 1024 * KB),
      status: 429,
      headers: { 'retry-after': '3600', 'x-padding': 'x'.repeat(10 * KB) },
    });
    await cache.get('k', big, () => 0);
    const replayed = await cache.get('k', big, () => 0);
    expect(replayed.status).toBe(429);
    expect(replayed.body.length).toBe(0);
    expect(replayed.headers).toEqual({ 'retry-after': '3600' });
  });

  it('remembers at most 10 000 rate limits, forgetting the oldest first', async () => {
    const cache = createMemoryContentCache();
    let calls = 0;
    const limited = async (): Promise<HttpResponse> => {
      calls++;
      return { ...answer(0), status: 429, headers: { 'retry-after': '3600' } };
    };
    for (let index = 0; index <= 10_000; index++) await cache.get(`k${index}`, limited, () => 0);
    expect(calls).toBe(10_001);
    await cache.get('k10000', limited, () => 0);
    expect(calls).toBe(10_001);
    await cache.get('k0', limited, () => 0);
    expect(calls).toBe(10_002);
  });

  it('makes room by forgetting the rate limits that have run out before any that still hold', async () => {
    let clock = 0;
    const cache = createMemoryContentCache({ now: () => clock });
    const loads = new Map<string, number>();
    const limitedFor =
      (seconds: number) =>
      async (key: string): Promise<HttpResponse> => {
        loads.set(key, (loads.get(key) ?? 0) + 1);
        return { ...answer(0), status: 429, headers: { 'retry-after': String(seconds) } };
      };
    // The oldest holds for an hour; the 9 999 after it for one second.
    await cache.get(
      'long',
      () => limitedFor(3600)('long'),
      () => 0,
    );
    for (let index = 1; index < 10_000; index++) {
      const key = `short${index}`;
      await cache.get(
        key,
        () => limitedFor(1)(key),
        () => 0,
      );
    }
    clock += 2_000;
    await cache.get(
      'new',
      () => limitedFor(3600)('new'),
      () => 0,
    );
    // The full memory dropped the 9 999 that ran out, not the oldest that still holds.
    await cache.get(
      'long',
      () => limitedFor(3600)('long'),
      () => 0,
    );
    await cache.get(
      'new',
      () => limitedFor(3600)('new'),
      () => 0,
    );
    expect([loads.get('long'), loads.get('new')]).toEqual([1, 1]);
  });
});
