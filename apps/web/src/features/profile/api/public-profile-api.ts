import { publicProfileResponseSchema } from '@digest/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export function usePublicProfile(username: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['users', 'by-username', username.toLowerCase()],
    queryFn: ({ signal }) =>
      api.get(`/users/by-username/${encodeURIComponent(username)}`, {
        auth: false,
        signal,
        schema: publicProfileResponseSchema,
      }),
    refetchOnWindowFocus: false,
  });
}
