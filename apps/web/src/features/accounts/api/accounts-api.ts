import {
  type AccountProvider,
  type ConnectableProviders,
  type ConnectedAccount,
  connectableProvidersResponseSchema,
  connectedAccountsResponseSchema,
  connectPathNameOf,
  connectStartResponseSchema,
} from '@digest/contracts';
import { api } from '#web/lib/api-client';

export function fetchConnectedAccounts(signal?: AbortSignal): Promise<ConnectedAccount[]> {
  return api
    .get('/data-sources/social-accounts/list', { schema: connectedAccountsResponseSchema, signal })
    .then((body) => body.accounts);
}

export function fetchConnectableProviders(signal?: AbortSignal): Promise<ConnectableProviders['providers']> {
  return api
    .get('/data-sources/social-accounts/providers', { schema: connectableProvidersResponseSchema, signal })
    .then((body) => body.providers);
}

/**
 * Asks the server to connect an account. It answers a single-use start address (and binds the flow to this
 * browser with a cookie); the browser then goes there, on to the provider, and comes back to `returnTo`.
 */
export function requestConnect(provider: AccountProvider, returnTo: string): Promise<string> {
  return api
    .post(`/auth/${connectPathNameOf(provider)}/tokens`, { returnTo }, { schema: connectStartResponseSchema })
    .then((body) => body.url);
}

/** Log Out of a connected account (revoked at the provider, removed here). */
export function logOutAccount(tokenId: string): Promise<void> {
  return api
    .post(`/data-sources/social-accounts/${encodeURIComponent(tokenId)}/logout`)
    .then(() => undefined);
}
