import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const check = z.object({ status: z.enum(['ok', 'error']) });

const healthResponse = z.object({
  status: z.enum(['ok', 'error']),
  database: check.extend({ kind: z.enum(['embedded', 'postgres']) }),
  queue: check,
  roles: z.array(z.string()),
});

export interface HealthDeps {
  databaseKind: 'embedded' | 'postgres';
  roles: string[];
  pingDatabase(): Promise<void>;
  pingQueue(): Promise<void>;
}

// The reason goes to the log, not the response: it can name internal hosts.
async function probe(name: string, ping: () => Promise<void>, log: FastifyBaseLogger) {
  try {
    await ping();
    return { status: 'ok' as const };
  } catch (error) {
    log.warn({ err: error }, `health: ${name} does not answer`);
    return { status: 'error' as const };
  }
}

export function healthRoutes(deps: HealthDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Whether the database and the job queue answer',
          response: { 200: healthResponse, 503: healthResponse },
        },
      },
      async (request, reply) => {
        const [database, queue] = await Promise.all([
          probe('database', deps.pingDatabase, request.log),
          probe('queue', deps.pingQueue, request.log),
        ]);
        const ok = database.status === 'ok' && queue.status === 'ok';
        return reply.status(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'error',
          database: { ...database, kind: deps.databaseKind },
          queue,
          roles: deps.roles,
        });
      },
    );
  };
}
