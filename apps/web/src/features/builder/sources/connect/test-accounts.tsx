import type { AccountProvider, ConnectedAccount } from '@digest/contracts';
import type { QueryKey } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { accountKeys } from '#web/features/accounts';
import { renderWithData } from '../form/render-panel';

/** For tests: a connected account of `provider`. */
export function testAccount(provider: AccountProvider, tokenId: string, name: string): ConnectedAccount {
  return {
    tokenId,
    tokenType: provider,
    email: provider === 'GOOGLE' ? `${name}@example.com` : null,
    username: provider === 'GOOGLE' ? null : name,
    profilePicture: null,
  };
}

/**
 * For tests: the markup of a panel in the builder's route, with the user's connected accounts and the
 * providers this server can connect (all of them unless `unconfigured` says otherwise) already known.
 */
export function renderWithAccounts(
  element: ReactElement,
  accounts: ConnectedAccount[],
  { unconfigured = [], seed = [] }: { unconfigured?: AccountProvider[]; seed?: [QueryKey, unknown][] } = {},
): string {
  const providers = (['GOOGLE', 'TWITTER', 'STRIPE'] as const).map((provider) => ({
    provider,
    configured: !unconfigured.includes(provider),
  }));
  return renderWithData(<MemoryRouter initialEntries={['/digestCreator']}>{element}</MemoryRouter>, [
    [accountKeys.list(), accounts],
    [accountKeys.providers(), providers],
    ...seed,
  ]);
}
