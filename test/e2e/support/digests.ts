import { type APIRequestContext, expect } from '@playwright/test';
import type { TokenPair } from './accounts';

export const auth = (token: TokenPair) => ({ authorization: `Bearer ${token.accessToken}` });

/** Three sources that need no connected account and no provider call to be saved. */
export const THREE_SOURCES = [
  { type: 'DATE' },
  { type: 'HACKER_NEWS', numberOfPosts: 5 },
  { type: 'WEATHER', latitude: 52.23, longitude: 21.01, locationName: 'Warsaw' },
];

export interface CreatedDigest {
  digestId: string;
  name: string;
  active: boolean;
  subscribers: string[];
  latestBuildNumber: number | null;
}

/** `POST /api/digests` with a valid body (docs/design.md §5); the omitted fields take docs/product.md §3 defaults. */
export async function createDigest(
  request: APIRequestContext,
  token: TokenPair,
  body: Record<string, unknown> = {},
): Promise<CreatedDigest> {
  const response = await request.post('/api/digests', {
    headers: auth(token),
    data: { name: 'Morning Brief', sources: THREE_SOURCES, ...body },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { digest: CreatedDigest }).digest;
}

export async function createDraft(
  request: APIRequestContext,
  token: TokenPair,
  body: Record<string, unknown>,
): Promise<{ digestId: string; name: string }> {
  const response = await request.post('/api/digests/drafts', { headers: auth(token), data: body });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { digest: { digestId: string; name: string } }).digest;
}

export interface DraftRow {
  digestId: string;
  name: string;
  sources: { type: string }[];
}

/** `GET /api/digests/drafts`: the user's drafts as the server has them. */
export async function listDrafts(request: APIRequestContext, token: TokenPair): Promise<DraftRow[]> {
  const response = await request.get('/api/digests/drafts', { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { digests: DraftRow[] }).digests;
}

export async function getDigest(
  request: APIRequestContext,
  token: TokenPair,
  digestId: string,
): Promise<CreatedDigest> {
  const response = await request.get(`/api/digests/${digestId}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { digest: CreatedDigest }).digest;
}

export interface SubscriberRow {
  email: string;
  status: 'invited' | 'subscribed' | 'declined' | 'unsubscribed' | 'bouncing';
  unsubscribedAt: string | null;
}

export async function listSubscribers(
  request: APIRequestContext,
  token: TokenPair,
  digestId: string,
): Promise<SubscriberRow[]> {
  const response = await request.get(`/api/digests/${digestId}/subscribers`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { subscribers: SubscriberRow[] }).subscribers;
}

/** `PUT /api/digests/{id}/visibility` with `public`: answers the public page's address (`{origin}/digests/share/{token}`). */
export async function turnOnPublicLink(
  request: APIRequestContext,
  token: TokenPair,
  digestId: string,
): Promise<string> {
  const response = await request.put(`/api/digests/${digestId}/visibility`, {
    headers: auth(token),
    data: { visibility: 'public' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { shareUrl: string }).shareUrl;
}
