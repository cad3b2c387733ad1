import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifyTypeProvider,
  RawServerDefault,
} from 'fastify';
import { AppError } from './errors';

/** How long a refused client is asked to wait: long enough for a queue of requests to clear. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 1;

export interface RequestGateOptions {
  /** MAX_REQUESTS_IN_FLIGHT: requests handled at once; one more is refused with 503 at once. */
  maxInFlight: number;
  /** Paths never refused (the health check an operator or a load balancer asks). */
  alwaysAdmitted: readonly string[];
}

export interface RequestGate {
  /** Requests started and not yet done with the database. */
  inFlight(): number;
  /** Resolves once no request is in flight, or after `timeoutMs` (answers whether they all finished). */
  drained(timeoutMs: number): Promise<boolean>;
}

const counted = Symbol('counted in flight');

/**
 * Bounds the requests one API process works on at once, and tells a stop when the last one is done.
 *
 * Past the bound a request is answered 503 with Retry-After before it reaches a route: a server past its
 * capacity sheds what it cannot serve soon instead of queueing it for seconds (which every client then
 * waits out, and which a load balancer cannot see). The health check is always admitted.
 *
 * A request counts from its first hook until its handler returns, its error is handled or its answer is
 * sent, whichever comes first: after that it touches no database. A client that hangs up does not end the
 * count (its hooks and a write's handler still run), which is what a stop must wait for before it closes the
 * database pool; a read whose client is gone skips its handler.
 */
export function installRequestGate<Logger extends FastifyBaseLogger, Provider extends FastifyTypeProvider>(
  app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger, Provider>,
  options: RequestGateOptions,
): RequestGate {
  let inFlight = 0;
  let idle: (() => void)[] = [];
  const admitted = new Set(options.alwaysAdmitted);

  const release = (request: FastifyRequest) => {
    const state = request as FastifyRequest & { [counted]?: boolean };
    if (!state[counted]) return;
    state[counted] = false;
    inFlight--;
    if (inFlight === 0) {
      for (const resolve of idle) resolve();
      idle = [];
    }
  };

  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (inFlight >= options.maxInFlight && !admitted.has(path)) {
      throw new AppError(
        503,
        'OVERLOADED',
        'The server is busy: try again in a moment.',
        OVERLOAD_RETRY_AFTER_SECONDS,
      );
    }
    (request as FastifyRequest & { [counted]?: boolean })[counted] = true;
    inFlight++;
  });
  // Whichever comes first ends the count; the others find it ended.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = async function (this: unknown, request, reply) {
      try {
        // A read whose client hung up while it waited would be answered to no one: under overload those
        // are the requests clients gave up on, and working through them anyway grows the queue. Writes
        // still run: the client may have sent one and gone (and will look at the result later).
        if ((request.method === 'GET' || request.method === 'HEAD') && request.raw.socket?.destroyed) {
          return reply.hijack();
        }
        return await handler.call(this as never, request, reply);
      } finally {
        release(request);
      }
    };
  });
  app.addHook('onError', async (request) => release(request));
  app.addHook('onResponse', async (request) => release(request));

  return {
    inFlight: () => inFlight,
    drained(timeoutMs) {
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          idle = idle.filter((waiting) => waiting !== done);
          resolve(false);
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve(true);
        };
        idle.push(done);
      });
    },
  };
}
