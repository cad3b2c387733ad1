import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error a person can act on: its message is shown to them, its code lets the client branch. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Seconds, sent as Retry-After (429 and 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

function describeValidation(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const context = error.validationContext ?? 'request';
  return error.validation
    .map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${field ? `${context}.${field}` : context}: ${issue.message}`;
    })
    .join('; ');
}

/** The one place an error becomes a response: `{ message, code }`, never a stack or SQL. */
export function handleError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.status(error.statusCode).send({ message: error.message, code: error.code });
  }
  if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
    return reply.status(400).send({ message: describeValidation(error), code: 'VALIDATION_ERROR' });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, body too large, wrong content type) have safe messages.
    return reply.status(status).send({ message: error.message, code: error.code ?? 'BAD_REQUEST' });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send({ message: INTERNAL_MESSAGE, code: 'INTERNAL_ERROR' });
}
