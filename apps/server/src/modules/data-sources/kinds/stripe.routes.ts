import type { StripeContent } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '#server/platform/http/auth';
import { stripeFigures } from '#server/sources/stripe/stripe.connector';
import type { DataSourceRoutesDeps } from '../data-sources.deps';

const figuresSchema = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  accounts: z.array(
    z.object({
      tokenId: z.string(),
      username: z.string(),
      profilePicture: z.string(),
      currency: z.string(),
      revenue: z.number().nullable(),
      revenueByCurrency: z.array(z.object({ currency: z.string(), amount: z.number() })),
      payments: z.number().nullable(),
      customers: z.number().nullable(),
      message: z.string(),
    }),
  ),
}) satisfies z.ZodType<StripeContent>;

/** docs/product.md §7 `GET /data-sources/stripe?tokenIds=a,b`: every figure of each connected Stripe account. */
export function stripeRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  const figures = stripeFigures(deps.sources);
  return async (app) => {
    app.get(
      '/data-sources/stripe',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Revenue, payments and new customers of connected Stripe accounts over the last 24 hours',
          description:
            "Amounts are in minor units (cents); `revenue` is in the account's default currency, every " +
            'currency is in `revenueByCurrency` (that one first, the others by code, never ranked by amount). ' +
            'An account that cannot be read keeps its place with ' +
            '`message` saying why (not connected, reconnect, timeout, 429 …).',
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            tokenIds: z
              .string({ error: 'tokenIds is required' })
              .transform((value) => [
                ...new Set(
                  value
                    .split(',')
                    .map((id) => id.trim())
                    .filter(Boolean),
                ),
              ])
              .pipe(
                z
                  .array(z.string().max(200))
                  .min(1, { error: 'tokenIds must name at least one account' })
                  .max(20, { error: 'tokenIds may name at most 20 accounts' }),
              ),
          }),
          response: { 200: figuresSchema },
        },
      },
      async (request) =>
        figures(
          authOf(request).userId,
          request.query.tokenIds.map((tokenId) => ({
            tokenId,
            username: '',
            revenue: true,
            payments: true,
            customers: true,
          })),
        ),
    );
  };
}
