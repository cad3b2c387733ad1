import { SOURCE_POST_LIMITS } from '@digest/contracts';
import type { ProductHuntContent } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '#server/platform/http/auth';
import type { SourcesDeps } from '#server/sources/connector';
import { productHuntClient } from '#server/sources/product-hunt/product-hunt.client';
import { todaysLaunches } from '#server/sources/product-hunt/product-hunt.connector';

/** docs/product.md §9: a new Product Hunt block shows 6 launches. */
const DEFAULT_LIMIT = 6;

const launchesSchema = z.object({
  items: z.array(
    z.object({
      name: z.string(),
      tagline: z.string(),
      description: z.string(),
      thumbnail: z.string(),
      votesCount: z.number().nullable(),
      commentsCount: z.number().nullable(),
      url: z.string(),
    }),
  ),
}) satisfies z.ZodType<ProductHuntContent>;

export function productHuntRoutes(deps: {
  sources: SourcesDeps;
  authenticate: Authenticate;
}): FastifyPluginAsyncZod {
  const client = productHuntClient(deps.sources);
  return async (app) => {
    app.get(
      '/data-sources/product-hunt',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: "Today's Product Hunt launches (Pacific day), best ranked first",
          description:
            'Descriptions are sanitised HTML in full. Without PRODUCT_HUNT_TOKEN the newest launches of the public feed, in its order: no description, and votes and comments null (unknown).',
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            limit: z.coerce.number().int().min(0).max(SOURCE_POST_LIMITS.PRODUCT_HUNT).default(DEFAULT_LIMIT),
          }),
          response: { 200: launchesSchema },
        },
      },
      async (request) =>
        todaysLaunches(client, {
          limit: request.query.limit,
          now: deps.sources.clock.now(),
          images: 'show',
          postBody: 'full',
        }),
    );
  };
}
