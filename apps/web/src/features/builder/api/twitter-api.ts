import type { TweetUser, TwitterList } from '@digest/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** docs/product.md §9: Twitter user lookups ask for 10 users, page 1. */
const USER_LOOKUP = { limit: '10', page: '1' } as const;

export const twitterKeys = {
  users: (tokenId: string, search: string) => ['builder', 'twitter', 'users', tokenId, search] as const,
  lists: (tokenId: string) => ['builder', 'twitter', 'lists', tokenId] as const,
};

/**
 * `GET /data-sources/twitter/users`: without `search`, suggestions (the accounts the connected user
 * follows); with it, a search.
 */
export function fetchTwitterUsers(
  tokenId: string,
  search: string,
  signal?: AbortSignal,
): Promise<TweetUser[]> {
  const query = new URLSearchParams({
    queryType: search ? 'search' : 'suggestions',
    tokenId,
    ...USER_LOOKUP,
  });
  if (search) query.set('search', search);
  return api
    .get<{ users: TweetUser[] }>(`/data-sources/twitter/users?${query}`, { signal })
    .then((body) => body.users);
}

/** `GET /data-sources/twitter/list?tokenId=`: the lists the connected account owns or follows. */
export function fetchTwitterLists(tokenId: string, signal?: AbortSignal): Promise<TwitterList[]> {
  const query = new URLSearchParams({ tokenId });
  return api
    .get<{ lists: TwitterList[] }>(`/data-sources/twitter/list?${query}`, { signal })
    .then((body) => body.lists);
}

export function useTwitterUsers(tokenId: string, search: string) {
  return useQuery({
    queryKey: twitterKeys.users(tokenId, search),
    queryFn: ({ signal }) => fetchTwitterUsers(tokenId, search, signal),
    enabled: tokenId !== '',
    staleTime: 5 * 60_000,
  });
}

export function useTwitterLists(tokenId: string) {
  return useQuery({
    queryKey: twitterKeys.lists(tokenId),
    queryFn: ({ signal }) => fetchTwitterLists(tokenId, signal),
    enabled: tokenId !== '',
    staleTime: 5 * 60_000,
  });
}
