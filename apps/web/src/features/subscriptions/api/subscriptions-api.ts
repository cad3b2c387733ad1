import { subscriptionResponseSchema, unsubscribeResponseSchema } from '@digest/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

const key = (token: string) => ['subscriptions', token] as const;

/** `GET /api/subscriptions/{token}`: what an invitation or unsubscribe link stands for (no login, changes nothing). */
export function useSubscription(token: string) {
  return useQuery({
    queryKey: key(token),
    queryFn: ({ signal }) =>
      api
        .get(`/subscriptions/${encodeURIComponent(token)}`, {
          auth: false,
          signal,
          schema: subscriptionResponseSchema,
        })
        .then((body) => body.subscription),
    refetchOnWindowFocus: false,
  });
}

/** `POST /api/subscriptions/{token}/unsubscribe`: only an explicit click unsubscribes (never a GET). */
export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['subscriptions', 'unsubscribe', token],
    mutationFn: () =>
      api.post(`/subscriptions/${encodeURIComponent(token)}/unsubscribe`, undefined, {
        auth: false,
        schema: unsubscribeResponseSchema,
      }),
    onSuccess: (response) => queryClient.setQueryData(key(token), response.subscription),
  });
}

/** The friend's answers to an invitation, each its own POST (a GET never answers). */
export type InvitationAnswer = 'accept' | 'decline' | 'never';

/** `POST /api/subscriptions/{token}/{accept,decline,never}`: only a click on the page answers. */
export function useAnswerInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['subscriptions', 'answer', token],
    mutationFn: (answer: InvitationAnswer) =>
      api.post(`/subscriptions/${encodeURIComponent(token)}/${answer}`, undefined, {
        auth: false,
        schema: unsubscribeResponseSchema,
      }),
    onSuccess: (response) => queryClient.setQueryData(key(token), response.subscription),
  });
}
