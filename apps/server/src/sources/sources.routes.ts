import type { preHandlerHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Limit, limitByKey } from '../app/rate-limit';
import { type Authenticate, authOf } from '../modules/auth/authenticate';
import type { AccountsConfigured } from './catalogue/catalogue';
import { catalogueRoutes } from './catalogue/catalogue.routes';
import type { SourceContext, SourcesDeps } from './connector';
import { googleCalendarRoutes } from './google-calendar/google-calendar.routes';
import { hackerNewsRoutes } from './hacker-news/hacker-news.routes';
import { previewRoutes } from './preview/preview.routes';
import { productHuntRoutes } from './product-hunt/product-hunt.routes';
import { redditRoutes } from './reddit/reddit.routes';
import { rssRoutes } from './rss/rss.routes';
import { stripeRoutes } from './stripe/stripe.routes';
import { twitterRoutes } from './twitter/twitter.routes';
import { weatherRoutes } from './weather/weather.routes';
import { youtubeRoutes } from './youtube/youtube.routes';

export interface DataSourceRoutesDeps {
  sources: SourcesDeps;
  authenticate: Authenticate;
  /** The signed-in user's zone and locale (previews of dated sources are computed in them). */
  contextOf(userId: string): Promise<SourceContext>;
  /** Connected-account providers this server has OAuth credentials for (config.oauth). */
  accountsConfigured: AccountsConfigured;
}

/**
 * Each data-source call makes this server fetch from a provider on the user's behalf: a signed-in user may
 * make this many per minute (the builder debounces its searches to one per 500 ms, SPEC §9).
 */
export const DATA_SOURCES_RATE_LIMIT: Limit = { max: 240, timeWindow: '1 minute' };

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Every `/api/data-sources/...` call of SPEC §7, signed-in only: each kind's folder contributes its
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
