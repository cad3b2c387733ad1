import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors';

export interface Limit {
  max: number;
  timeWindow: string;
}

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', `Too many requests. Try again in ${retryAfterSeconds} seconds.`);

/**
 * A preHandler limiting requests by a key taken from the request (an account, an e-mail address),
 * on top of the per-address `config.rateLimit` of the route: @fastify/rate-limit runs one limit per
 * request, so a second one goes through its `createRateLimit`.
 */
export function limitByKey(
  app: Pick<FastifyInstance, 'createRateLimit'>,
  name: string,
  limit: Limit,
  keyOf: (request: FastifyRequest) => string,
) {
  const check = app.createRateLimit({ ...limit, keyGenerator: (request) => `${name}:${keyOf(request)}` });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', result.ttlInSeconds);
      throw tooManyRequests(result.ttlInSeconds);
    }
  };
}
