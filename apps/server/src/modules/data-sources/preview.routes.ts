import { sourceSchema, withConditionsApplied } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
            'answers with its status and message, as the other data-source calls do.',
          security: [{ bearerAuth: [] }],
          body: z.object({ source: sourceSchema }).strict(),
          response: { 200: z.object({ content: z.unknown() }) },
        },
      },
      async (request) => {
        const context = await deps.contextOf(authOf(request).userId);
        const { source } = request.body;
        // Without the items its conditions leave out (points, comments), as the issue will.
        return {
          content: withConditionsApplied(source, await fetchSourceContent(connectors, source, context)),
        };
      },
    );
  };
}
