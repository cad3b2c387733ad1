import { sourceSchema, withConditionsApplied } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import { findOwnedSources } from '#server/modules/source-health/source-health.repository';
import {
  failedRead,
  recordPreviewHealth,
  successfulRead,
} from '#server/modules/source-health/source-health.usecases';
import { authOf } from '#server/platform/http/auth';
import { createConnectors, fetchSourceContent } from '#server/sources/connectors';
import type { DataSourceRoutesDeps } from './data-sources.deps';

/**
 * `POST /api/data-sources/preview`: the live content of one source exactly as its block in an issue will
 * get it (the same connector, settings and cache), so the builder shows what the e-mail will show.
 */
export function previewRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  const connectors = createConnectors(deps.sources);
  return async (app) => {
    app.post(
      '/data-sources/preview',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: "One source's live content, as its block in the next issue will show it",
          description:
            'The body is one source with its settings (the same shape a digest stores). A provider failure ' +
            'answers with its status and message, as the other data-source calls do. With `digestId` (one ' +
            "of the user's digests; another user's answers 404), a preview of one of that digest's sources " +
            "records how it read in the source's health.",
          security: [{ bearerAuth: [] }],
          body: z.object({ source: sourceSchema, digestId: z.uuid().optional() }).strict(),
          response: { 200: z.object({ content: z.unknown() }) },
        },
      },
      async (request) => {
        const { userId } = authOf(request);
        const { source, digestId } = request.body;
        if (digestId && !(await findOwnedSources(deps.health.db, userId, digestId)))
          throw digestsErrors.digestNotFound();
        const context = await deps.contextOf(userId);
        try {
          const content = await fetchSourceContent(connectors, source, context);
          if (digestId) await recordPreviewHealth(deps.health, digestId, successfulRead(source, content));
          // Without the items its conditions leave out (points, comments), as the issue will.
          return { content: withConditionsApplied(source, content) };
        } catch (error) {
          const read = digestId ? failedRead(source, error) : undefined;
          if (digestId && read) await recordPreviewHealth(deps.health, digestId, read);
          throw error;
        }
      },
    );
  };
}
