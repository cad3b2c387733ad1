import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Toaster } from 'sonner';
import { createQueryClient } from '#web/lib/query-client';
import { onSessionEnd } from '#web/lib/session/session';

/** docs/product.md §8: toasts at the top right, closing after 5000 ms. */
const TOAST_DURATION_MS = 5000;

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // Log out clears the user data and every list along with the token (docs/product.md §2 "Settings area").
  useEffect(() => onSessionEnd(() => queryClient.clear()), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster position="top-right" duration={TOAST_DURATION_MS} closeButton richColors />
    </QueryClientProvider>
  );
}
