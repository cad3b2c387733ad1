import { z } from 'zod';
import { refusalFrom } from '#server/sources/account-refusal';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';
import { type ParsedFeed, parseFeed } from '#server/sources/rss/feed-parser';
import { SourceError } from '#server/sources/source-error';
import { YOUTUBE_DATA_API_ANSWERS } from './youtube.answers';

const PROVIDER = 'YouTube';

/** The Data API answers at most 50 results or ids per call. */
export const YOUTUBE_MAX_RESULTS = 50;

const thumbnailsSchema = z
  .object({
    default: z.object({ url: z.string() }).optional(),
    medium: z.object({ url: z.string() }).optional(),
    high: z.object({ url: z.string() }).optional(),
  })
  .default({});

/** `GET /search?type=channel`: only the ids matter, `/channels` gives the rest. */
const searchListSchema = z.object({
  items: z
    .array(z.object({ id: z.object({ kind: z.string(), channelId: z.string().optional() }) }))
    .default([]),
});

const channelListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        snippet: z.object({
          title: z.string().default(''),
          description: z.string().default(''),
          thumbnails: thumbnailsSchema,
        }),
        statistics: z
          .object({
            /** A decimal string; absent when the channel hides it. */
            subscriberCount: z.string().optional(),
            hiddenSubscriberCount: z.boolean().optional(),
          })
          .default({}),
      }),
    )
    .default([]),
});
export type YoutubeChannelResource = z.infer<typeof channelListSchema>['items'][number];

/**
 * Where a channel, handle or watch page names its channel: the canonical link of a channel page, the
 * `channelId` meta of a watch page, and the ids in the page's embedded data, in that order of trust.
 */
const PAGE_CHANNEL_ID = [
  /<link rel="canonical" href="https:\/\/www\.youtube\.com\/channel\/(UC[A-Za-z0-9_-]{22})"/,
  /<meta itemprop="channelId" content="(UC[A-Za-z0-9_-]{22})"/,
  /"externalId":"(UC[A-Za-z0-9_-]{22})"/,
  /"channelId":"(UC[A-Za-z0-9_-]{22})"/,
];

/**
 * A channel whose feed always answers (YouTube's own, @YouTube). YouTube's feed server has had
 * platform-wide outages in which it answered 404 — its "no such channel" — or 500 for every channel for
 * hours, so a 404 alone does not say the channel is gone. When a feed answers 404, this channel's feed is
 * read too: if it answers, the channel truly has no feed; if it fails as well, YouTube is down. Asking
 * YouTube at the moment of the failure works for every channel, pasted or saved long ago, and needs no
 * memory of earlier reads (which another process would not share, and which could not tell a channel
 * deleted since from an outage). It is read fresh, never from the cache: a copy from before the outage
 * would vouch for a feed server that has stopped answering.
 */
export const REFERENCE_CHANNEL_ID = 'UCBR8-60-B28hp2BmDPdntcQ';

/** What the user reads while YouTube's feed server fails: the fault is YouTube's, and it passes. */
const feedsDown = (how: string, error: SourceError) =>
  new SourceError(
    'upstream',
    `YouTube is not answering channel feeds right now (it answered ${how}): try again later`,
    error.retryAfterSeconds,
    error.providerStatus,
  );

/** The Data API needs a key; the server has none when YOUTUBE_API_KEY is unset. */
function apiKeyOf(providers: ProviderConfig): string {
  const key = providers.credentials.youtubeApiKey;
  if (!key) throw new SourceError('not_configured', 'YouTube search is not configured on this server');
  return key;
}

/**
 * YouTube: channel feeds (`{YOUTUBE_FEEDS_BASE_URL}/videos.xml?channel_id=`, no key) for a channel's
 * newest videos, the Data API v3 (`YOUTUBE_BASE_URL`, with YOUTUBE_API_KEY) for channel search and
 * channel details.
 */
export function youtubeClient(deps: { http: ProviderHttp; providers: ProviderConfig }) {
  const { baseUrls } = deps.providers;

  /** A channel's feed as YouTube answers it (its 15 newest uploads). */
  function feed(channelId: string, cached = true) {
    const url = new URL(`${baseUrls.youtubeFeeds}/videos.xml`);
    url.searchParams.set('channel_id', channelId);
    return deps.http.text({
      provider: PROVIDER,
      url,
      cache: cached && { defaultSeconds: 900, minSeconds: 300, maxSeconds: 3600 },
    });
  }

  /** The failure reading a channel's feed now (not from the cache) ends in, or undefined when it answers. */
  const feedFails = (channelId: string) =>
    feed(channelId, false).then(
      () => undefined,
      (error: unknown) => error,
    );

  /** A Data API GET with the server's key; the answers are cached for an hour (5 minutes to a day). */
  async function dataApi<T>(path: string, parameters: Record<string, string>, schema: z.ZodType<T>) {
    const url = new URL(`${baseUrls.youtube}${path}`);
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    url.searchParams.set('key', apiKeyOf(deps.providers));
    const request = {
      provider: PROVIDER,
      url,
      cache: { defaultSeconds: 3600, minSeconds: 300, maxSeconds: 86_400 },
      refusal: refusalFrom(YOUTUBE_DATA_API_ANSWERS),
    };
    return deps.http.json(request, schema);
  }

  return {
    /**
     * The channel's feed (its 15 newest uploads). Unknown channel → `not_found` naming it; YouTube's feed
     * server failing (5xx, or 404 for a channel known to exist too) → `upstream` saying YouTube is down.
     */
    async channelFeed(channelId: string): Promise<ParsedFeed> {
      const answer = await feed(channelId).catch(async (error: unknown) => {
        if (!(error instanceof SourceError)) throw error;
        if (error.kind === 'upstream' && error.providerStatus !== undefined) {
          throw feedsDown(String(error.providerStatus), error);
        }
        if (error.kind !== 'not_found') throw error;
        const reference = channelId === REFERENCE_CHANNEL_ID ? error : await feedFails(REFERENCE_CHANNEL_ID);
        if (reference) throw feedsDown('404 for every channel', error);
        throw new SourceError('not_found', `YouTube has no channel ${channelId}`, undefined, 404);
      });
      try {
        return parseFeed(answer.body, { url: answer.url, contentType: answer.contentType });
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        throw new SourceError(
          'invalid_response',
          `YouTube answered the feed of ${channelId} with something unreadable`,
        );
      }
    },

    /**
     * The id of the channel a youtube.com page names (`/@handle`, `/c/name`, `/user/name`, `/watch?v=`),
     * read from the page itself: no key needed. A page that does not exist, or names no channel → `not_found`.
     */
    async channelIdOfPage(path: string): Promise<string> {
      const notFound = () => new SourceError('not_found', 'YouTube has no channel at that address');
      const answer = await deps.http
        .text({
          provider: PROVIDER,
          url: new URL(`${baseUrls.youtubeWeb}${path}`),
          cache: { defaultSeconds: 86_400, minSeconds: 3600, maxSeconds: 86_400 },
        })
        .catch((error: unknown) => {
          throw error instanceof SourceError && error.kind === 'not_found' ? notFound() : error;
        });
      for (const pattern of PAGE_CHANNEL_ID) {
        const id = pattern.exec(answer.body)?.[1];
        if (id) return id;
      }
      throw notFound();
    },

    /** Ids of the channels matching `query`, best match first. */
    async searchChannelIds(query: string, limit: number): Promise<string[]> {
      const parameters = {
        part: 'snippet',
        type: 'channel',
        q: query,
        maxResults: String(Math.min(limit, YOUTUBE_MAX_RESULTS)),
      };
      const answer = await dataApi('/search', parameters, searchListSchema);
      return answer.items.flatMap((item) =>
        item.id.kind === 'youtube#channel' && item.id.channelId ? [item.id.channelId] : [],
      );
    },

    /** Title, description, avatar and subscriber count of each known channel among `ids` (unknown ids are left out). */
    async channels(ids: string[]): Promise<YoutubeChannelResource[]> {
      if (ids.length === 0) return [];
      const parameters = {
        part: 'snippet,statistics',
        id: ids.slice(0, YOUTUBE_MAX_RESULTS).join(','),
        maxResults: String(YOUTUBE_MAX_RESULTS),
      };
      const answer = await dataApi('/channels', parameters, channelListSchema);
      return answer.items;
    },
  };
}

export type YoutubeClient = ReturnType<typeof youtubeClient>;
