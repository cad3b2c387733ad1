import { digestHealthResponseSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '#server/db/client';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import { idParams, isUuid } from '#server/modules/digests/ids';
import type { Clock } from '#server/platform/clock';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { presentHealth } from './source-health.presenter';
import { findOwnedSources, recordsOf } from './source-health.repository';

export interface SourceHealthRoutesDeps {
  db: Database;
  clock: Clock;
  authenticate: Authenticate;
}

/** `GET /api/digests/{id}/health`: how each source of the owner's digest last read, and what to do about it. */
export function sourceHealthRoutes(deps: SourceHealthRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/digests/:id/health',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['digests'],
          summary: "The health of each of the digest's sources (issue 17)",
          description:
            "One entry per source (sources reading the same thing share one), in the digest's order: the " +
            "last success and failure with the provider's words, failed issues in a row, when the " +
            "provider asked to wait until, and the fix. Another user's digest answers 404.",
          security: [{ bearerAuth: [] }],
          params: idParams,
          response: { 200: digestHealthResponseSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!isUuid(id)) throw digestsErrors.digestNotFound();
        const sources = await findOwnedSources(deps.db, authOf(request).userId, id);
        if (!sources) throw digestsErrors.digestNotFound();
        return { sources: presentHealth(sources, await recordsOf(deps.db, id), deps.clock.now()) };
      },
    );
  };
}
