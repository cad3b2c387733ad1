import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** The signed-in user of a request, as the auth module's `authenticate` found it. */
export interface Authenticated {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Authenticated;
  }
}

/** The preHandler a signed-in route runs first (modules/auth builds it). */
export type Authenticate = (request: FastifyRequest) => Promise<void>;

export const unauthenticated = () => new AppError(401, 'UNAUTHENTICATED', 'Log in to continue.');

/** The signed-in user of a request that went through `authenticate`. */
export function authOf(request: FastifyRequest): Authenticated {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}
