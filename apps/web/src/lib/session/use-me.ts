import { type User, userResponseSchema } from '@digest/contracts';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { useAuthStore } from './session';

export function fetchMe(signal?: AbortSignal): Promise<User> {
  return api.get('/users/me', { schema: userResponseSchema, signal }).then((body) => body.user);
}

export const meQueryKey = ['users', 'me'] as const;

/** The signed-in user (`GET /users/me`); idle without a token. */
export function useMe() {
  const hasToken = useAuthStore((state) => state.token !== null);
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => fetchMe(signal),
    enabled: hasToken,
    staleTime: 60_000,
  });
}

/**
 * The signed-in user inside signed-in routes, where the session guard has already loaded it.
 * Throws (to the route's error screen) if used elsewhere.
 */
export function useCurrentUser(): User {
  const { data } = useMe();
  if (!data) throw new Error('useCurrentUser() used outside the signed-in routes');
  return data;
}

export function setMe(queryClient: QueryClient, user: User): void {
  queryClient.setQueryData(meQueryKey, user);
}

/** docs/product.md §4: the user data is reloaded 500 ms after a profile save. */
export const PROFILE_RELOAD_DELAY_MS = 500;

export function reloadMeSoon(queryClient: QueryClient): void {
  setTimeout(() => {
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, PROFILE_RELOAD_DELAY_MS);
}

/** Digest name default (docs/product.md §5): the full name followed by 's Digest, or User if empty. */
export function defaultDigestName(user: Pick<User, 'fullName'>): string {
  const name = user.fullName?.trim() || 'User';
  return `${name}'s Digest`;
}

export function isProfileComplete(user: Pick<User, 'fullName' | 'username'>): boolean {
  return Boolean(user.fullName?.trim()) && Boolean(user.username?.trim());
}
