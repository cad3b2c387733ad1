import type { RssFeedInfo, SearchResult } from '@digest/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export const rssKeys = {
  /** The popular feeds ('') or those matching a phrase. */
  list: (search: string) => ['builder', 'rss', 'list', search] as const,
  /** The feed at an address (or the one a page announces). */
  feed: (url: string) => ['builder', 'rss', 'feed', url] as const,
};

/** `GET /data-sources/rss/list[?search=]`: the popular feeds, or those matching `search`. */
export function useRssList(search: string) {
  return useQuery({
    queryKey: rssKeys.list(search),
    queryFn: ({ signal }) =>
      api
        .get<{ results: SearchResult[] }>(
          `/data-sources/rss/list${search ? `?${new URLSearchParams({ search })}` : ''}`,
          { signal },
        )
        .then((body) => body.results),
    staleTime: 10 * 60_000,
  });
}

/**
 * `GET /data-sources/rss/feed?url=&limit=0`: what the feed at `url` calls itself, without its posts. The
 * server reads a web page's announced feed too, so a pasted site address works. null: no address.
 */
export function useRssFeedInfo(url: string | null) {
  return useQuery({
    queryKey: rssKeys.feed(url ?? ''),
    queryFn: ({ signal }) =>
      api
        .get<{ feed: RssFeedInfo }>(
          `/data-sources/rss/feed?${new URLSearchParams({ url: url ?? '', limit: '0' })}`,
          {
            signal,
          },
        )
        .then((body) => body.feed),
    enabled: url !== null,
    staleTime: 10 * 60_000,
  });
}
