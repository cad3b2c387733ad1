import { describe, expect, it } from 'vitest';
import { createHostLimiter } from './host-limiter';

describe('the host limiter', () => {
  it('lets perHost requests to one host run at once and the rest wait in order', async () => {
    const limiter = createHostLimiter(2);
    const order: number[] = [];
    const first = await limiter.acquire('a.example');
    await limiter.acquire('a.example');
    const waiting = [3, 4].map((n) =>
      limiter.acquire('a.example').then((release) => {
        order.push(n);
        return release;
      }),
    );
    await limiter.acquire('b.example');
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    const third = await waiting[0];
    expect(order).toEqual([3]);
    third?.();
    await waiting[1];
    expect(order).toEqual([3, 4]);
  });

  it('a waiter whose signal aborts leaves the queue with the reason', async () => {
    const limiter = createHostLimiter(1);
    const release = await limiter.acquire('a.example');
    const controller = new AbortController();
    const aborted = limiter.acquire('a.example', controller.signal);
    const next = limiter.acquire('a.example');
    controller.abort(new Error('gave up'));
    await expect(aborted).rejects.toThrow('gave up');
    release();
    await expect(next).resolves.toBeTypeOf('function');
  });
});
