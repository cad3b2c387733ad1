import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { redditFake } from '#test/fakes/providers/reddit';

let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [redditFake] });
  api = await startTestApi({ fakes });
  user = await signUp(api);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/reddit', undefined));

const get = (url: string, headers: Record<string, string> = user.headers) =>
  api.app.inject({ method: 'GET', url: `/api/data-sources/reddit${url}`, headers });

describe('GET /api/data-sources/reddit (subreddit list)', () => {
  it('lists popular subreddits, 20 at most, with the `after` of the next page', async () => {
    const response = await get('?limit=3');
    expect(response.statusCode).toBe(200);
    const { subreddits, after, access } = response.json();
    expect(access).toBe('api');
    expect(subreddits.map((entry: { name: string }) => entry.name)).toEqual([
      'AskReddit',
      'funny',
      'worldnews',
    ]);
    expect(after).toBe('t5_2qh13');
    const next = await get(`?limit=3&after=${after}`);
    expect(next.json().subreddits[0].name).toBe('programming');
  });

  it('searches subreddits, and goes back to the popular list for an empty search', async () => {
    const found = await get('?search=program');
    expect(found.json().subreddits.map((entry: { name: string }) => entry.name)).toEqual([
      'programming',
      'learnprogramming',
      'ProgrammerHumor',
    ]);
    const popular = await get('?search=');
    expect(popular.json().subreddits).toHaveLength(13);
  });

  it.each([
    ['?search=ab', 'search must have more than 2 characters'],
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=101', 'limit must be at most 100'],
    ['?after=../../etc', 'after must be a subreddit id'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await get(query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('answers 401 without a token', async () => {
    expect((await get('', {})).statusCode).toBe(401);
  });
});

describe('GET /api/data-sources/reddit/{subreddit}', () => {
  it('answers the 10 hot posts of the preview, self text cut to its first paragraph', async () => {
    const response = await get('/programming');
    expect(response.statusCode).toBe(200);
    const { subreddit, posts } = response.json();
    expect(subreddit).toBe('programming');
    expect(posts).toHaveLength(10);
    expect(Object.keys(posts[0]).sort()).toEqual(
      ['id', 'image', 'numComments', 'selfText', 'title', 'ups', 'url'].sort(),
    );
    const nix = posts.find((post: { id: string }) => post.id === '1gwa7pq');
    expect(nix.selfText).toMatch(/^<p>We had 40 YAML files.*<\/p>$/);
  });

  it('answers the whole self text with body=full, none with body=hide, and no pictures with images=hide', async () => {
    const full = (await get('/programming?limit=2&body=full')).json().posts[1];
    expect(full.selfText).toContain('<ul>');
    const hidden = (await get('/programming?limit=2&body=hide&images=hide')).json().posts;
    expect(hidden.map((post: { selfText: string; image: string }) => post.selfText + post.image)).toEqual([
      '',
      '',
    ]);
  });

  it('answers 404 saying why a subreddit is private, banned or unknown', async () => {
    for (const [name, message] of [
      ['private_club', 'r/private_club is private: only its approved members can read it'],
      ['banned_example', 'r/banned_example was banned by Reddit'],
      ['no_such_sub_42', 'r/no_such_sub_42 does not exist'],
    ]) {
      const response = await get(`/${name}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message, code: 'SOURCE_NOT_FOUND' });
    }
  });

  it('reads posts from the public feed when Reddit refuses this server, and says the list is unavailable', async () => {
    // A server without a Reddit app reads the public endpoints, which Reddit refuses to servers.
    const env = Object.fromEntries(
      Object.entries(fakes.env).filter(([name]) => !name.startsWith('REDDIT_CLIENT_')),
    );
    const keyless = await startTestApi({ fakes: { ...fakes, env } });
    redditFake.blockServer(true);
    try {
      const owner = await signUp(keyless);
      const read = (url: string) =>
        keyless.app.inject({ method: 'GET', url: `/api/data-sources/reddit${url}`, headers: owner.headers });
      const list = await read('?limit=20');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toEqual({ subreddits: [], after: null, access: 'feed' });
      const posts = await read('/webdev?limit=3');
      expect(posts.statusCode, posts.body).toBe(200);
      expect(posts.json().posts).toHaveLength(3);
      expect(posts.json().posts[0]).toMatchObject({ ups: null, numComments: null });
      expect((await keyless.app.inject({ method: 'GET', url: '/api/data-sources/reddit' })).statusCode).toBe(
        401,
      );
    } finally {
      redditFake.blockServer(false);
      await keyless.close();
    }
    // It starts a second API (a database of its own) for the server without a Reddit app.
  }, 90_000);

  it.each([
    ['/a', 'Subreddit must be 2 to 21 letters'],
    ['/this_name_is_far_too_long_for_reddit', 'Subreddit must be 2 to 21 letters'],
    ['/bad-name', 'Subreddit must be 2 to 21 letters'],
    ['/programming?limit=11', 'limit must be at most 10'],
    ['/programming?body=some', "body must be 'full', 'paragraph' or 'hide'"],
    ['/programming?images=maybe', "images must be 'show' or 'hide'"],
  ])('refuses %s with 400', async (url, message) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('passes a provider 429 on with its Retry-After', async () => {
    fakes.setFailure('/reddit', { status: 429, headers: { 'retry-after': '60' } });
    const response = await get('/worldnews?limit=3');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('60');
    expect(response.json().message).toBe('Reddit answered 429: rate-limited, retry in 60 s');
  });

  it('answers 401 without a token', async () => {
    expect((await get('/programming', {})).statusCode).toBe(401);
  });
});
