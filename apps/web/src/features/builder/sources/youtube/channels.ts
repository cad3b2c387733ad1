import type { DataSource, SourceInputOf } from '@digest/contracts';
import type { YoutubeChannel } from '@digest/contracts/content';

/** The settings a picked channel gives a YouTube block: which channel, and what it is called. */
export function channelSettings(
  channel: YoutubeChannel,
): Pick<SourceInputOf<'YOUTUBE'>, 'channelId' | 'channelName' | 'sourceName'> {
  return { channelId: channel.channelId, channelName: channel.title, sourceName: channel.title };
}

/**
 * Why channels cannot be searched on this server (the catalogue says so: search needs a YouTube Data API
 * key, the channel feeds do not), or null when they can or the catalogue has not answered yet.
 */
export function channelSearchUnavailable(catalogue: readonly DataSource[] | undefined): string | null {
  const youtube = catalogue?.find((kind) => kind.type === 'YOUTUBE');
  if (youtube?.searchConfigured !== false) return null;
  return youtube.reason ?? 'YouTube search is not configured on this server';
}
