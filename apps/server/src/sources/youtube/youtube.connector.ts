import type { ImagesOption } from '@digest/contracts';
import type { YoutubeContent } from '@digest/contracts/content';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { httpUrlOrEmpty } from '#server/sources/safe-link';
import { type YoutubeClient, youtubeClient } from './youtube.client';

/** The newest `limit` videos of a channel, from its feed (no API key needed). */
export async function latestVideos(
  client: YoutubeClient,
  request: { channelId: string; limit: number; images: ImagesOption; channelName?: string },
): Promise<YoutubeContent> {
  const feed = await client.channelFeed(request.channelId);
  return {
    channelId: request.channelId,
    channelName: feed.title || request.channelName || '',
    videos: feed.items.slice(0, request.limit).map((item) => ({
      title: item.title,
      date: item.pubDate,
      link: httpUrlOrEmpty(item.link),
      cover: request.images === 'show' ? httpUrlOrEmpty(item.image) : '',
    })),
  };
}

/** YOUTUBE: the channel's newest `numberOfPosts` videos, covers per `images`. */
export function youtubeConnector(deps: SourcesDeps): Connector<'YOUTUBE'> {
  const client = youtubeClient(deps);
  return {
    type: 'YOUTUBE',
    fetchContent: (source) =>
      latestVideos(client, {
        channelId: source.channelId,
        limit: source.numberOfPosts,
        images: source.images,
        channelName: source.channelName,
      }),
  };
}
