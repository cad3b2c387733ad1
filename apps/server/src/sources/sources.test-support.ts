/**
 * Test support for the connectors: the `SourcesDeps` a connector is given, wired to the fake providers
 * over real HTTP, with a small in-memory `AccountTokens` standing in for modules/accounts (an interface
 * boundary, not one of our modules' logic), and the real connect flow for API tests.
 * Not a test file itself.
 */
import type { TestApi } from '../../test/test-api';
import { loadConfig } from '../app/config';
import { CONNECT_STATE_COOKIE } from '../modules/accounts/accounts.routes';
import type { TestUser } from '../modules/users/test-support';
import { type Clock, systemClock } from '../platform/clock';
import { createSafeFetch } from '../platform/safe-fetch/safe-fetch';
import type { AccountProvider, AccountTokens, ConnectedAccountSummary, SourcesDeps } from './connector';
import { createMemoryContentCache, createProviderHttp } from './create-provider-http';
import { SourceError } from './source-error';

export interface TestAccount {
  provider: AccountProvider;
  accessToken: string;
  providerAccountId?: string;
  email?: string;
  username?: string;
}

/** The accounts of one user, by tokenId; any other user or tokenId is not connected. */
export function testAccountTokens(userId: string, accounts: Record<string, TestAccount>): AccountTokens {
  const summaryOf = (tokenId: string, account: TestAccount): ConnectedAccountSummary => ({
    tokenId,
    tokenType: account.provider,
    providerAccountId: account.providerAccountId ?? tokenId,
    email: account.email ?? null,
    username: account.username ?? null,
    profilePicture: null,
  });
  return {
    async accessToken(owner, tokenId, provider) {
      const account = accounts[tokenId];
      if (owner !== userId || !account || account.provider !== provider) {
        throw new SourceError('not_connected', 'This source is not connected yet.');
      }
      return { accessToken: account.accessToken, account: summaryOf(tokenId, account) };
    },
    async list(owner, provider) {
      if (owner !== userId) return [];
      return Object.entries(accounts)
        .filter(([, account]) => provider === undefined || account.provider === provider)
        .map(([tokenId, account]) => summaryOf(tokenId, account));
    },
  };
}

/** An access token as the fake OAuth servers issue it, valid for an hour of real time. */
export const fakeAccessToken = (provider: 'google' | 'twitter' | 'stripe', accountId: string) =>
  `fake-${provider}-access.${accountId}.${Math.floor(Date.now() / 1000) + 3600}`;

export function connectorDeps(
  fakes: { env: Record<string, string> },
  options: { accounts: AccountTokens; clock?: Clock; timeoutMs?: number },
): SourcesDeps {
  const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
  return {
    http: createProviderHttp({
      // A hanging provider must fail the test quickly, not after the production 10 s.
      safeFetch: options.timeoutMs
        ? (request) => safeFetch({ ...request, timeoutMs: options.timeoutMs })
        : safeFetch,
      cache: createMemoryContentCache(),
    }),
    providers: loadConfig(fakes.env).providers,
    accounts: options.accounts,
    clock: options.clock ?? systemClock,
  };
}

/**
 * Connects one of the fake OAuth server's accounts to `user` the way the web app and the browser do
 * (`POST /api/auth/{provider}/tokens`, the provider's consent, our callback) and answers its tokenId.
 */
export async function connectAccount(
  api: TestApi,
  user: TestUser,
  provider: 'google' | 'twitter' | 'stripe',
) {
  const started = await api.app.inject({
    method: 'POST',
    url: `/api/auth/${provider}/tokens`,
    headers: user.headers,
    payload: {},
  });
  if (started.statusCode !== 200)
    throw new Error(`connect ${provider}: ${started.statusCode} ${started.body}`);
  const setCookie = started.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${CONNECT_STATE_COOKIE}=`));
  const browser = { cookie: cookie ?? '', 'x-forwarded-for': user.ip };
  const go = await api.app.inject({
    method: 'GET',
    url: new URL(started.json().url).pathname,
    headers: browser,
  });
  const consent = await fetch(String(go.headers.location), { redirect: 'manual' });
  const callback = new URL(String(consent.headers.get('location')));
  await api.app.inject({ method: 'GET', url: callback.pathname + callback.search, headers: browser });
  const listed = await api.app.inject({
    method: 'GET',
    url: '/api/data-sources/social-accounts/list',
    headers: user.headers,
  });
  const account = (listed.json().accounts as { tokenId: string; tokenType: string }[]).find(
    (candidate) => candidate.tokenType === provider.toUpperCase(),
  );
  if (!account) throw new Error(`connect ${provider}: no account listed (${listed.body})`);
  return account.tokenId;
}
