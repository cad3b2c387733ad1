import type { YoutubeChannel } from '@digest/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** docs/product.md §9: a channel search shows 10 results. */
const SEARCH_RESULTS = 10;

export const youtubeKeys = {
  /** The popular channels ('') or those matching a phrase. */
  channels: (search: string) => ['builder', 'youtube', 'channels', search] as const,
};

/** `GET /data-sources/youtube/channels[?search=&limit=10]`: popular channels, or those matching `search`. */
export function useYoutubeChannels(search: string) {
  return useQuery({
    queryKey: youtubeKeys.channels(search),
    queryFn: ({ signal }) => {
      const params = search ? `?${new URLSearchParams({ search, limit: String(SEARCH_RESULTS) })}` : '';
      return api
        .get<{ channels: YoutubeChannel[] }>(`/data-sources/youtube/channels${params}`, { signal })
        .then((body) => body.channels);
    },
    staleTime: 10 * 60_000,
  });
}
