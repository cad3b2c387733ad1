/**
 * At most `perHost` requests in flight to one host; the rest wait in order. Keeps a burst of digests from
 * opening dozens of connections to one provider (and being rate-limited or banned for it). safe-fetch and
 * the mailer each make their own: one per provider host, one for the SMTP server.
 */
export interface HostLimiter {
  /**
   * Resolves with `release` once a slot is free; rejects with `signal.reason` if aborted while waiting.
   * Without a signal the wait cannot be given up (the mailer's: a delivery waits for its connection).
   */
  acquire(host: string, signal?: AbortSignal): Promise<() => void>;
}

interface Waiter {
  grant: () => void;
}

export function createHostLimiter(perHost: number): HostLimiter {
  const active = new Map<string, number>();
  const queues = new Map<string, Waiter[]>();

  function release(host: string) {
    const next = queues.get(host)?.shift();
    if (next) {
      next.grant();
      return;
    }
    queues.delete(host);
    const count = (active.get(host) ?? 1) - 1;
    if (count === 0) active.delete(host);
    else active.set(host, count);
  }

  function releaserFor(host: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release(host);
    };
  }

  return {
    acquire(host, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const count = active.get(host) ?? 0;
      if (count < perHost) {
        active.set(host, count + 1);
        return Promise.resolve(releaserFor(host));
      }
      return new Promise((resolve, reject) => {
        // A granted slot passes straight from the releasing request to this one: `active` stays the same.
        const waiter: Waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(releaserFor(host));
          },
        };
        const onAbort = () => {
          const queue = queues.get(host) ?? [];
          queue.splice(queue.indexOf(waiter), 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = queues.get(host) ?? [];
        queue.push(waiter);
        queues.set(host, queue);
      });
    },
  };
}
