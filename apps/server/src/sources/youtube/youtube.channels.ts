import { type YoutubeAddress, youtubeAddressOf } from '@digest/contracts';
import type { YoutubeChannel } from '@digest/contracts/content';
import type { ProviderConfig } from '#server/sources/provider-config';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { SourceError } from '#server/sources/source-error';
import type { YoutubeChannelResource, YoutubeClient } from './youtube.client';
import { POPULAR_YOUTUBE_CHANNELS } from './youtube.popular-channels';

/** docs/product.md §5: a search phrase needs more than 2 characters; a shorter one lists the popular channels. */
export const CHANNEL_SEARCH_MIN_LENGTH = 3;

function channelOf(resource: YoutubeChannelResource): YoutubeChannel {
  const { snippet, statistics } = resource;
  const subscribers = Number(statistics.subscriberCount ?? 0);
  const thumbnail = snippet.thumbnails.default ?? snippet.thumbnails.medium ?? snippet.thumbnails.high;
  return {
    channelId: resource.id,
    title: snippet.title,
    description: snippet.description,
    subscribers: Number.isFinite(subscribers) ? subscribers : 0,
    icon: httpUrlOrEmpty(thumbnail?.url),
  };
}

/** The channels of docs/product.md §7 `GET /data-sources/youtube/channels`: searched with a phrase, popular without. */
export function youtubeChannels(client: YoutubeClient, providers: ProviderConfig) {
  async function search(phrase: string, limit: number): Promise<YoutubeChannel[]> {
    const ids = await client.searchChannelIds(phrase, limit);
    const byId = new Map((await client.channels(ids)).map((resource) => [resource.id, resource]));
    // `/channels` answers in its own order; keep the search's ranking.
    return ids.flatMap((id) => {
      const resource = byId.get(id);
      return resource ? [channelOf(resource)] : [];
    });
  }

  async function popular(limit: number): Promise<YoutubeChannel[]> {
    const curated = POPULAR_YOUTUBE_CHANNELS.slice(0, limit);
    if (!providers.credentials.youtubeApiKey || curated.length === 0) return [...curated];
    let current: Map<string, YoutubeChannelResource>;
    try {
      current = new Map((await client.channels(curated.map((c) => c.channelId))).map((r) => [r.id, r]));
    } catch (error) {
      // The curated list stands on its own: a refused key or an outage must not empty the builder's
      // first view (search, which needs the API, reports the failure).
      if (error instanceof SourceError) return [...curated];
      throw error;
    }
    return curated.map((channel) => {
      const resource = current.get(channel.channelId);
      return resource ? channelOf(resource) : channel;
    });
  }

  /**
   * The one channel a pasted address names. Its details come from the Data API when the server has a
   * key; without one, from the channel's feed (its title; no avatar or subscriber count).
   */
  async function addressed(address: YoutubeAddress): Promise<YoutubeChannel[]> {
    const channelId =
      address.kind === 'channel' ? address.channelId : await client.channelIdOfPage(address.path);
    if (providers.credentials.youtubeApiKey) {
      const [resource] = await client.channels([channelId]);
      if (!resource) throw new SourceError('not_found', `YouTube has no channel ${channelId}`);
      return [channelOf(resource)];
    }
    const feed = await client.channelFeed(channelId);
    return [{ channelId, title: feed.title || channelId, description: '', subscribers: 0, icon: '' }];
  }

  return {
    list({ search: phrase = '', limit }: { search?: string; limit: number }): Promise<YoutubeChannel[]> {
      const trimmed = phrase.trim();
      const address = youtubeAddressOf(trimmed);
      if (address) return addressed(address);
      return trimmed.length >= CHANNEL_SEARCH_MIN_LENGTH ? search(trimmed, limit) : popular(limit);
    },
  };
}
