import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { productHuntFake } from '#test/fakes/providers/product-hunt';

let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [productHuntFake()] });
  api = await startTestApi({ fakes });
  user = await signUp(api);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/product-hunt', undefined));

const get = (url: string, headers: Record<string, string> = user.headers) =>
  api.app.inject({ method: 'GET', url, headers });

describe('GET /api/data-sources/product-hunt', () => {
  it("gives today's 6 best ranked launches by default, with full descriptions and thumbnails", async () => {
    const response = await get('/api/data-sources/product-hunt');
    expect(response.statusCode).toBe(200);
    const { items } = response.json();
    expect(items).toHaveLength(6);
    expect(items[0]).toMatchObject({
      name: 'Lumen Notes',
      votesCount: 812,
      commentsCount: 94,
      thumbnail: expect.stringMatching(/^https:\/\/ph-files\.imgix\.net\//),
    });
    expect(items[0].description).toMatch(/^<p>Lumen Notes .*<\/p><p>Sync is end-to-end encrypted.*<\/p>$/);
  });

  it('gives `limit` launches from 0 to 10 and refuses other limits with 400', async () => {
    expect((await get('/api/data-sources/product-hunt?limit=0')).json().items).toEqual([]);
    expect((await get('/api/data-sources/product-hunt?limit=10')).json().items).toHaveLength(10);
    for (const limit of ['11', '-1', 'six']) {
      const response = await get(`/api/data-sources/product-hunt?limit=${limit}`);
      expect(response.statusCode, limit).toBe(400);
      expect(response.json().message).toMatch(/limit/);
    }
  });

  it('answers Product Hunt’s rate limit with 429 and Retry-After', async () => {
    fakes.setFailure('/product-hunt', { status: 429, headers: { 'retry-after': '120' } });
    const response = await get('/api/data-sources/product-hunt?limit=3');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('120');
    expect(response.json().code).toBe('SOURCE_RATE_LIMITED');
  });

  it('answers a GraphQL error with 502 and its message, never a 500', async () => {
    fakes.setFailure('/product-hunt', {
      status: 200,
      body: { errors: [{ message: 'Internal server error' }] },
    });
    const response = await get('/api/data-sources/product-hunt?limit=4');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      message: 'Product Hunt refused the query: Internal server error',
      code: 'SOURCE_UPSTREAM',
    });
  });

  it('answers 401 without a session', async () => {
    expect((await get('/api/data-sources/product-hunt', {})).statusCode).toBe(401);
  });
});
