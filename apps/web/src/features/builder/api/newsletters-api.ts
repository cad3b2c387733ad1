import type { NewsletterMailbox } from '@digest/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export const newsletterMailboxKeys = {
  mailbox: () => ['builder', 'newsletters', 'mailbox'] as const,
};

/** `GET /newsletters`: the user's newsletter address and senders, for choosing what a block reads. */
export function useNewsletterMailbox() {
  return useQuery({
    queryKey: newsletterMailboxKeys.mailbox(),
    queryFn: ({ signal }) => api.get<NewsletterMailbox>('/newsletters', { signal }),
    staleTime: 60_000,
  });
}
