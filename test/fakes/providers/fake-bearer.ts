import type { FakeRequest } from '../fake-provider';
import { type FakeOAuthProvider, readFakeAccessToken } from './oauth';

/**
 * The account id of the access token a fake API was called with — `Authorization: Bearer
 * fake-<provider>-access.<accountId>.<expiresAt>` as the fake OAuth servers issue it — or undefined when
 * the token is missing, malformed, expired or revoked (the real APIs answer 401 then).
 */
export function fakeBearer(request: FakeRequest, provider: FakeOAuthProvider): string | undefined {
  return fakeBearerGrant(request, provider)?.accountId;
}

/** `fakeBearer`, with the scopes the token was granted (X's tokens carry them; undefined for the others). */
export function fakeBearerGrant(request: FakeRequest, provider: FakeOAuthProvider) {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  return token ? readFakeAccessToken(provider, token) : undefined;
}
