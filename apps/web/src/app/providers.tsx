import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { createQueryClient } from '#web/lib/query-client';
import { onSessionEnd } from '#web/lib/session/session';
import { Toasts } from '#web/lib/toasts';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // Log out clears the user data and every list along with the token (docs/product.md §2 "Settings area").
  useEffect(() => onSessionEnd(() => queryClient.clear()), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toasts />
    </QueryClientProvider>
  );
}
