import { googleCalendarSourceSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '#server/platform/http/auth';
import { googleCalendarConnector } from '#server/sources/google-calendar/google-calendar.connector';
import type { DataSourceRoutesDeps } from '../data-sources.deps';

/** docs/product.md §7 `POST /data-sources/google-calendar` `{ settings }`: the block's events, in the owner's zone. */
export function googleCalendarRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  const connector = googleCalendarConnector(deps.sources);
  return async (app) => {
    app.post(
      '/data-sources/google-calendar',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Events of the chosen Google calendars for today, tomorrow or the next 7 days',
          description:
            'Days start at midnight in the signed-in user’s time zone. An account that cannot be read is ' +
            'listed in `errors` with why (not connected, reconnect, timeout, 429 …); the others still show.',
          security: [{ bearerAuth: [] }],
          body: z.object({ settings: googleCalendarSourceSchema }),
        },
      },
      async (request) => {
        const context = await deps.contextOf(authOf(request).userId);
        return connector.fetchContent(request.body.settings, context);
      },
    );
  };
}
