import { IMAGE_OPTIONS, POST_BODY_OPTIONS, SOURCE_POST_LIMITS } from '@digest/contracts';
import type { RssContent, SearchResult } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '#server/platform/http/auth';
import type { SourcesDeps } from '#server/sources/connector';
import { fetchFeed } from '#server/sources/rss/rss.connector';
import { RSS_CATALOGUE } from '#server/sources/rss/rss-catalogue.data';

/** docs/product.md §5: a search phrase needs more than 2 characters. */
export const RSS_SEARCH_MIN_LENGTH = 3;
/** docs/product.md §9: an RSS block shows 6 posts unless told otherwise. */
const DEFAULT_LIMIT = 6;
const MAX_URL_LENGTH = 2048;

/** The catalogue entries whose title or description contains `search`; all of them for a shorter phrase. */
export function searchRssCatalogue(search: string | undefined): SearchResult[] {
  const phrase = (search ?? '').trim().toLowerCase();
  if (phrase.length < RSS_SEARCH_MIN_LENGTH) return [...RSS_CATALOGUE];
  return RSS_CATALOGUE.filter(
    (entry) => entry.title.toLowerCase().includes(phrase) || entry.description.toLowerCase().includes(phrase),
  );
}

const searchResultSchema = z.object({
  title: z.string(),
  description: z.string(),
  platformId: z.string(),
  customProps: z.object({ favicon: z.string() }),
}) satisfies z.ZodType<SearchResult>;

const rssContentSchema = z.object({
  feed: z.object({ title: z.string(), link: z.string(), favicon: z.string(), url: z.string() }),
  items: z.array(
    z.object({
      title: z.string(),
      content: z.string(),
      creator: z.string(),
      link: z.string(),
      pubDate: z.string(),
      image: z.string(),
    }),
  ),
}) satisfies z.ZodType<RssContent>;

const feedUrl = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH, { error: `Feed URL must be at most ${MAX_URL_LENGTH} characters` })
  .pipe(z.url({ protocol: /^https?$/, error: 'Feed URL must be an http(s) address' }));

export function rssRoutes(deps: { sources: SourcesDeps; authenticate: Authenticate }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/data-sources/rss/list',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'The RSS list: popular feeds, or those matching a search phrase, as { results }',
          description: `A phrase of ${RSS_SEARCH_MIN_LENGTH} characters or more filters the catalogue by title and description (case-insensitive); a shorter or no phrase lists every popular feed. Each result's platformId is the feed URL.`,
          security: [{ bearerAuth: [] }],
          querystring: z.object({ search: z.string().max(200).optional() }),
          response: { 200: z.object({ results: z.array(searchResultSchema) }) },
        },
      },
      async (request) => ({ results: searchRssCatalogue(request.query.search) }),
    );

    app.get(
      '/data-sources/rss/feed',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary:
            'Preview a feed (RSS, Atom, RDF or JSON Feed; an HTML page is searched for its feed link, answered as feed.url)',
          description:
            'Content is sanitised HTML: the full post, its first paragraph, or empty (body=hide, which also hides images). A provider failure answers with its status and a message saying what failed.',
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            url: feedUrl,
            limit: z.coerce.number().int().min(0).max(SOURCE_POST_LIMITS.RSS).default(DEFAULT_LIMIT),
            image: z.enum(IMAGE_OPTIONS).default('show'),
            body: z.enum(POST_BODY_OPTIONS).default('paragraph'),
          }),
          response: { 200: rssContentSchema },
        },
      },
      async (request) => fetchFeed(deps.sources, request.query),
    );
  };
}
