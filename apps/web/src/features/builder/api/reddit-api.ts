import type { Subreddit } from '@digest/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** docs/product.md §7 / §9: the subreddit list and its search load 20. */
const LIST_SIZE = 20;

export const redditKeys = {
  /** The popular subreddits ('') or those matching a phrase. */
  subreddits: (search: string) => ['builder', 'reddit', 'subreddits', search] as const,
};

/**
 * How the server reads Reddit: its API, or (Reddit refusing this server the API) the subreddits' public
 * feeds, when there is no list to choose from and posts come without scores or comment counts.
 */
export type RedditAccess = 'api' | 'feed';

export interface SubredditList {
  subreddits: Subreddit[];
  access: RedditAccess;
}

/** `GET /data-sources/reddit?limit=20[&search=]`: popular subreddits, or those matching `search`. */
export function useSubreddits(search: string) {
  return useQuery({
    queryKey: redditKeys.subreddits(search),
    queryFn: ({ signal }): Promise<SubredditList> => {
      const params = new URLSearchParams({ limit: String(LIST_SIZE), ...(search ? { search } : {}) });
      return api
        .get<SubredditList>(`/data-sources/reddit?${params}`, { signal })
        .then((body) => ({ subreddits: body.subreddits, access: body.access }));
    },
    staleTime: 10 * 60_000,
  });
}
