import type { Subreddit } from '@digest/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** docs/product.md §7 / §9: the subreddit list and its search load 20. */
const LIST_SIZE = 20;

export const redditKeys = {
  /** The popular subreddits ('') or those matching a phrase. */
  subreddits: (search: string) => ['builder', 'reddit', 'subreddits', search] as const,
};

/** `GET /data-sources/reddit?limit=20[&search=]`: popular subreddits, or those matching `search`. */
export function useSubreddits(search: string) {
  return useQuery({
    queryKey: redditKeys.subreddits(search),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(LIST_SIZE), ...(search ? { search } : {}) });
      return api
        .get<{ subreddits: Subreddit[] }>(`/data-sources/reddit?${params}`, { signal })
        .then((body) => body.subreddits);
    },
    staleTime: 10 * 60_000,
  });
}
