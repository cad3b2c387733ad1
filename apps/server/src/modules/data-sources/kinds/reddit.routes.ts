import { IMAGE_OPTIONS, POST_BODY_OPTIONS, SOURCE_POST_LIMITS, subredditNameSchema } from '@digest/contracts';
import type { RedditContent, Subreddit } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { redditClient } from '#server/sources/reddit/reddit.client';
import { redditPosts, subredditList } from '#server/sources/reddit/reddit.connector';
import type { DataSourceRoutesDeps } from '../data-sources.deps';

const MAX_POSTS = SOURCE_POST_LIMITS.REDDIT;
/** docs/product.md §9: the preview loads 10 posts; the subreddit list 20. */
const PREVIEW_POSTS = 10;
const LIST_SIZE = 20;
/** docs/product.md §5: a search phrase needs more than 2 characters. */
const MIN_SEARCH_LENGTH = 3;

const subredditSchema = z.object({
  name: z.string(),
  description: z.string(),
  subscribers: z.number(),
  url: z.string(),
  icon: z.string(),
}) satisfies z.ZodType<Subreddit>;

const postsSchema = z.object({
  subreddit: z.string(),
  posts: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      ups: z.number().nullable(),
      numComments: z.number().nullable(),
      title: z.string(),
      selfText: z.string(),
      image: z.string(),
    }),
  ),
}) satisfies z.ZodType<RedditContent>;

const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100, { error: 'limit must be at most 100' })
    .default(LIST_SIZE),
  /** Empty means the popular list (the builder clears the search to go back to it). */
  search: z
    .string()
    .trim()
    .max(100, { error: 'search must have at most 100 characters' })
    .refine((value) => value === '' || value.length >= MIN_SEARCH_LENGTH, {
      error: 'search must have more than 2 characters',
    })
    .optional(),
  /** The `after` of the previous page: a subreddit's full name. */
  after: z
    .string()
    .regex(/^t5_[a-z0-9]{1,16}$/, { error: 'after must be a subreddit id such as t5_2qh1i' })
    .optional(),
});

const postsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(0, { error: 'limit must be at least 0' })
    .max(MAX_POSTS, { error: `limit must be at most ${MAX_POSTS}` })
    .default(PREVIEW_POSTS),
  body: z
    .enum(POST_BODY_OPTIONS, { error: "body must be 'full', 'paragraph' or 'hide'" })
    .default('paragraph'),
  images: z.enum(IMAGE_OPTIONS, { error: "images must be 'show' or 'hide'" }).default('show'),
});

export function redditRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  const client = redditClient(deps.sources);
  return async (app) => {
    app.get(
      '/data-sources/reddit',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Popular subreddits, or those matching a search (NSFW ones left out)',
          description:
            'Pass the answer’s `after` to get the next page. `access: "feed"`: Reddit refuses this server ' +
            'its API, so there is no list (the subreddit is named instead) and posts are read from public ' +
            'feeds, without scores or comment counts.',
          security: [{ bearerAuth: [] }],
          querystring: listQuerySchema,
          response: {
            200: z.object({
              subreddits: z.array(subredditSchema),
              after: z.string().nullable(),
              access: z.enum(['api', 'feed']),
            }),
          },
        },
      },
      async (request) => {
        const { limit, search, after } = request.query;
        return subredditList(client, { limit, search: search || undefined, after });
      },
    );

    app.get(
      '/data-sources/reddit/:subreddit',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'The hot posts of a subreddit (pinned and NSFW posts left out)',
          description:
            '`body`: the self text whole, its first paragraph, or none. A private, banned or unknown ' +
            'subreddit answers 404 naming it.',
          security: [{ bearerAuth: [] }],
          params: z.object({ subreddit: subredditNameSchema }),
          querystring: postsQuerySchema,
          response: { 200: postsSchema },
        },
      },
      async (request) => {
        const { limit, body, images } = request.query;
        return redditPosts(client, {
          subreddit: request.params.subreddit,
          numberOfPosts: limit,
          postBody: body,
          images,
        });
      },
    );
  };
}
