import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { hackerNewsFake } from '#test/fakes/providers/hacker-news';

let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [hackerNewsFake] });
  api = await startTestApi({ fakes });
  user = await signUp(api);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/hn', undefined));

const get = (query: string, headers: Record<string, string> = user.headers) =>
  api.app.inject({ method: 'GET', url: `/api/data-sources/hacker-news${query}`, headers });

describe('GET /api/data-sources/hacker-news', () => {
  it('answers the 10 top stories of the preview by default', async () => {
    const response = await get('');
    expect(response.statusCode).toBe(200);
    const { items } = response.json();
    expect(items).toHaveLength(10);
    expect(Object.keys(items[0]).sort()).toEqual(
      ['createdAt', 'numberOfComments', 'score', 'storyUrl', 'title', 'url'].sort(),
    );
  });

  it('answers the latest stories with Show HN mixed in when asked', async () => {
    const response = await get('?latest=true&showHN=true&askHN=false&count=4');
    expect(response.statusCode).toBe(200);
    const titles = response.json().items.map((item: { title: string }) => item.title);
    expect(titles).toEqual([
      'Rust 1.92 release notes',
      'Ask HN: How do you keep notes across machines?',
      'Show HN: A CLI to diff two OpenAPI documents',
      'Show HN: I made a game about packet routing',
    ]);
  });

  it('answers no stories for count=0', async () => {
    const response = await get('?count=0');
    expect(response.json()).toEqual({ items: [] });
  });

  it.each([
    ['?count=11', 'count must be at most 10'],
    ['?count=-1', 'count must be at least 0'],
    ['?count=two', 'count must be a number'],
    ['?latest=yes', 'latest must be true or false'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await get(query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('answers a provider failure with its status and what failed', async () => {
    fakes.setFailure('/hn', { status: 503 });
    const response = await get('?count=3&askHN=1');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ message: 'Hacker News answered 503', code: 'SOURCE_UPSTREAM' });
  });

  it('answers 401 without a token', async () => {
    expect((await get('', {})).statusCode).toBe(401);
  });
});
