import { SOURCE_POST_LIMITS } from '@digest/contracts';
import type { YoutubeChannel, YoutubeContent } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '#server/platform/http/auth';
import type { SourcesDeps } from '#server/sources/connector';
import { CHANNEL_SEARCH_MIN_LENGTH, youtubeChannels } from '#server/sources/youtube/youtube.channels';
import { YOUTUBE_MAX_RESULTS, youtubeClient } from '#server/sources/youtube/youtube.client';
import { latestVideos } from '#server/sources/youtube/youtube.connector';

/** docs/product.md §9: the channel search shows 10 results, a channel preview 6 videos. */
const DEFAULT_CHANNELS = 10;
const DEFAULT_VIDEOS = 6;

const channelSchema = z.object({
  channelId: z.string(),
  title: z.string(),
  description: z.string(),
  subscribers: z.number(),
  icon: z.string(),
}) satisfies z.ZodType<YoutubeChannel>;

const videosSchema = z.object({
  channelId: z.string(),
  channelName: z.string(),
  videos: z.array(z.object({ title: z.string(), date: z.string(), link: z.string(), cover: z.string() })),
}) satisfies z.ZodType<YoutubeContent>;

export function youtubeRoutes(deps: {
  sources: SourcesDeps;
  authenticate: Authenticate;
}): FastifyPluginAsyncZod {
  const client = youtubeClient(deps.sources);
  const channels = youtubeChannels(client, deps.sources.providers);
  return async (app) => {
    app.get(
      '/data-sources/youtube/channels',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'YouTube channels: found by a search phrase, or the popular ones without one',
          description: `A phrase of ${CHANNEL_SEARCH_MIN_LENGTH} characters or more searches (needs YOUTUBE_API_KEY, else 503); a shorter or no phrase lists popular channels.`,
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            search: z.string().max(200).optional(),
            limit: z.coerce.number().int().min(1).max(YOUTUBE_MAX_RESULTS).default(DEFAULT_CHANNELS),
          }),
          response: { 200: z.object({ channels: z.array(channelSchema) }) },
        },
      },
      async (request) => ({ channels: await channels.list(request.query) }),
    );

    app.get(
      '/data-sources/youtube/videos',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: "A channel's newest videos (from its feed; no API key needed)",
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            channelId: z
              .string()
              .trim()
              .regex(/^[A-Za-z0-9_-]{2,64}$/, { error: 'Channel id must be letters, digits, - or _' }),
            limit: z.coerce.number().int().min(0).max(SOURCE_POST_LIMITS.YOUTUBE).default(DEFAULT_VIDEOS),
          }),
          response: { 200: videosSchema },
        },
      },
      async (request) =>
        latestVideos(client, {
          channelId: request.query.channelId,
          limit: request.query.limit,
          images: 'show',
        }),
    );
  };
}
