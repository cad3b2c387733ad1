import type { AccountProvider, ConnectedAccount } from '@digest/contracts';
import { useEffect, useRef } from 'react';
import { useConnectedAccounts } from '#web/features/accounts';
import type { BuilderStep } from '#web/features/builder/lib/steps';
import { CONNECT_REDIRECT_MS } from '#web/features/builder/lib/steps';
import { accountsOf } from './account-list';

/** The user's connected accounts of one provider: undefined until they are known. */
export function useProviderAccounts(provider: AccountProvider): {
  accounts: ConnectedAccount[] | undefined;
  query: ReturnType<typeof useConnectedAccounts>;
} {
  const query = useConnectedAccounts();
  return { accounts: query.data ? accountsOf(query.data, provider) : undefined, query };
}

/**
 * docs/product.md §4: settings that have no connected account to read with go back to the connect step after
 * about 0.5 s (long enough to see why). Nothing happens while the accounts are loading or failed.
 */
export function useBackToConnect(disconnected: boolean, goTo: (step: BuilderStep) => void): void {
  const go = useRef(goTo);
  go.current = goTo;
  useEffect(() => {
    if (!disconnected) return;
    const timer = setTimeout(() => go.current('connect'), CONNECT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [disconnected]);
}
