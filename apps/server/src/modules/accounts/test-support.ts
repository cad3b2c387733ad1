/**
 * Test support for API tests that need a connected account: the real connect flow, through the fake
 * OAuth servers. Not a test file itself.
 */

import type { TestUser } from '#server/modules/users/test-support';
import type { TestApi } from '#server-test/test-api';
import { CONNECT_STATE_COOKIE } from './accounts.routes';

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
