import { SOURCE_POST_LIMITS } from '@digest/contracts';
import type { HackerNewsItem } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hackerNewsContent } from '#server/sources/hacker-news/hacker-news.connector';
import type { DataSourceRoutesDeps } from '../data-sources.deps';
import { queryFlag } from '../query-params';

const MAX_POSTS = SOURCE_POST_LIMITS.HACKER_NEWS;
/** docs/product.md §9: the builder's preview loads 10 posts. */
const PREVIEW_POSTS = 10;

const itemSchema = z.object({
  title: z.string(),
  url: z.string(),
  storyUrl: z.string(),
  createdAt: z.string(),
  numberOfComments: z.number(),
  score: z.number(),
}) satisfies z.ZodType<HackerNewsItem>;

export function hackerNewsRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/data-sources/hacker-news',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Top or latest Hacker News stories, with Ask HN and Show HN stories mixed in when asked',
          description:
            'Top: the front page by points (Ask HN / Show HN: the best of the last two days). Latest: newest ' +
            'first. Each asked kind gets about an equal share of `count`.',
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            latest: queryFlag('latest'),
            askHN: queryFlag('askHN'),
            showHN: queryFlag('showHN'),
            count: z.coerce
              .number({ error: 'count must be a number' })
              .int({ error: 'count must be a whole number' })
              .min(0, { error: 'count must be at least 0' })
              .max(MAX_POSTS, { error: `count must be at most ${MAX_POSTS}` })
              .default(PREVIEW_POSTS),
          }),
          response: { 200: z.object({ items: z.array(itemSchema) }) },
        },
      },
      async (request) => {
        const { latest, askHN, showHN, count } = request.query;
        return hackerNewsContent(deps.sources, {
          story: latest ? 'latest' : 'top',
          askHN,
          showHN,
          numberOfPosts: count,
        });
      },
    );
  };
}
