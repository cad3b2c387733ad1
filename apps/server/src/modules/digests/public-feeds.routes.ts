import { PUBLIC_FEEDS, type PublicFeedFormat } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isNotModified, type PublicFeedsDeps, readPublicFeed } from './public-feeds.usecases';
import { SHARE_RATE_LIMIT } from './share.routes';

/**
 * Headers of a feed: nothing in it runs if a browser opens it (the HTML inside is escaped text anyway);
 * feed readers poll, so it is cached a while and revalidated with its ETag or Last-Modified.
 */
export const FEED_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'public, max-age=300',
};

export function publicFeedsRoutes(deps: PublicFeedsDeps): FastifyPluginAsyncZod {
  return async (app) => {
    for (const format of Object.keys(PUBLIC_FEEDS) as PublicFeedFormat[]) {
      const { file, type, label } = PUBLIC_FEEDS[format];
      app.get(
        `/digests/share/:shareToken/${file}`,
        {
          config: { rateLimit: SHARE_RATE_LIMIT },
          schema: {
            tags: ['share'],
            summary: `A public digest's newest issues as ${label === 'Atom' ? 'an Atom feed' : 'a JSON Feed'} (${type}, no login)`,
            params: z.object({ shareToken: z.string().max(100) }),
          },
        },
        async (request, reply) => {
          const feed = await readPublicFeed(deps, request.params.shareToken, format);
          reply.headers({
            ...FEED_HEADERS,
            etag: feed.etag,
            'last-modified': feed.lastModified.toUTCString(),
          });
          const conditions = {
            ifNoneMatch: request.headers['if-none-match'],
            ifModifiedSince: request.headers['if-modified-since'],
          };
          if (isNotModified(feed, conditions)) return reply.status(304).send();
          return reply.type(`${type}; charset=utf-8`).send(feed.body);
        },
      );
    }
  };
}
