import type { preHandlerHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '#server/platform/http/auth';
import { type Limit, limitByKey } from '#server/platform/http/rate-limit';
import { catalogueRoutes } from './catalogue.routes';
import type { DataSourceRoutesDeps } from './data-sources.deps';
import { googleCalendarRoutes } from './kinds/google-calendar.routes';
import { hackerNewsRoutes } from './kinds/hacker-news.routes';
import { productHuntRoutes } from './kinds/product-hunt.routes';
import { redditRoutes } from './kinds/reddit.routes';
import { rssRoutes } from './kinds/rss.routes';
import { stripeRoutes } from './kinds/stripe.routes';
import { twitterRoutes } from './kinds/twitter.routes';
import { weatherRoutes } from './kinds/weather.routes';
import { youtubeRoutes } from './kinds/youtube.routes';
import { previewRoutes } from './preview.routes';

/**
 * Each data-source call makes this server fetch from a provider on the user's behalf: a signed-in user may
 * make this many per minute (the builder debounces its searches to one per 500 ms, docs/product.md §9).
 */
export const DATA_SOURCES_RATE_LIMIT: Limit = { max: 240, timeWindow: '1 minute' };

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Every `/api/data-sources/...` call of docs/product.md §7, signed-in only: each kind's file under kinds/ contributes its
 * routes here. A provider failure answers that call with the SourceError's status and message. Every
 * route is limited per user after its `authenticate`.
 */
export function dataSourcesRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod[] {
  const kinds = [
    googleCalendarRoutes(deps),
    twitterRoutes(deps),
    stripeRoutes(deps),
    weatherRoutes(deps),
    hackerNewsRoutes(deps),
    redditRoutes(deps),
    youtubeRoutes(deps),
    productHuntRoutes(deps),
    rssRoutes(deps),
    previewRoutes(deps),
    catalogueRoutes({
      providers: deps.sources.providers,
      accountsConfigured: deps.accountsConfigured,
      authenticate: deps.authenticate,
    }),
  ];
  return [
    async (app) => {
      const perUser = limitByKey(
        app,
        'data-sources',
        DATA_SOURCES_RATE_LIMIT,
        (request) => authOf(request).userId,
      );
      app.addHook('onRoute', (route) => {
        route.preHandler = [...asArray<preHandlerHookHandler>(route.preHandler), perUser];
      });
      for (const kind of kinds) await app.register(kind);
    },
  ];
}
