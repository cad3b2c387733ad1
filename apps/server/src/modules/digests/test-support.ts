/**
 * Test support for the digests, subscribers and templates modules: request bodies with valid sources,
 * and calls made through the API. Not a test file itself.
 */
import type { SourceInput } from '@digest/contracts';
import type { TestUser } from '#server/modules/users/test-support';
import type { HttpServer } from '#server-test/test-api';

export const HN: SourceInput = { type: 'HACKER_NEWS' };
export const DATE: SourceInput = { type: 'DATE' };
export const RSS: SourceInput = {
  type: 'RSS',
  feedLink: 'https://example.com/feed.xml',
  sourceName: 'Example',
};
export const REDDIT: SourceInput = { type: 'REDDIT', sourceName: 'programming' };

/** Three valid sources: the least a digest may have. */
export const THREE_SOURCES: SourceInput[] = [HN, DATE, RSS];

/** `count` valid sources (Hacker News blocks). */
export const sources = (count: number): SourceInput[] => Array.from({ length: count }, () => HN);

export function call(
  app: HttpServer,
  user: Pick<TestUser, 'headers'> | null,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** `call` on the test app of a file, which its beforeAll starts (hence read when called). */
export const callerOf =
  (app: () => HttpServer) =>
  (
    user: Pick<TestUser, 'headers'> | null,
    method: Parameters<typeof call>[2],
    url: string,
    payload?: unknown,
  ) =>
    call(app(), user, method, url, payload);

/** A digest made through `POST /api/digests`; throws unless it answers 201. */
export async function createDigest(app: HttpServer, user: Pick<TestUser, 'headers'>, body: object = {}) {
  const response = await call(app, user, 'POST', '/api/digests', { sources: THREE_SOURCES, ...body });
  if (response.statusCode !== 201) throw new Error(`create digest: ${response.statusCode} ${response.body}`);
  return response.json().digest as { digestId: string; name: string; [key: string]: unknown };
}
