import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { RSS_CATALOGUE } from '#server/sources/rss/rss-catalogue.data';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { feedsFake } from '#test/fakes/providers/feeds';

let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [feedsFake] });
  api = await startTestApi({ fakes });
  user = await signUp(api);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/feeds', undefined));

const get = (url: string, headers: Record<string, string> = user.headers) =>
  api.app.inject({ method: 'GET', url, headers });

const feed = (name: string, query = '') =>
  get(`/api/data-sources/rss/feed?url=${encodeURIComponent(`${fakes.origin}/feeds/${name}`)}${query}`);

describe('GET /api/data-sources/rss/list', () => {
  it('lists every popular feed as { results } of { title, description, platformId, customProps.favicon }', async () => {
    const response = await get('/api/data-sources/rss/list');
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results).toHaveLength(RSS_CATALOGUE.length);
    expect(results.length).toBeGreaterThanOrEqual(40);
    expect(results[0]).toEqual({
      title: 'BBC News',
      description: expect.any(String),
      platformId: 'https://feeds.bbci.co.uk/news/rss.xml',
      customProps: { favicon: 'https://www.bbc.co.uk/favicon.ico' },
    });
  });

  it('filters by title or description, ignoring case, for a phrase of more than 2 characters', async () => {
    const byTitle = (await get('/api/data-sources/rss/list?search=nasa')).json().results;
    expect(byTitle.map((result: { title: string }) => result.title)).toEqual(['NASA']);
    const byDescription = (await get('/api/data-sources/rss/list?search=WEBCOMIC')).json().results;
    expect(byDescription.map((result: { title: string }) => result.title)).toEqual(['xkcd']);
    expect((await get('/api/data-sources/rss/list?search=zzzzzz')).json()).toEqual({ results: [] });
  });

  it('lists the popular feeds for a phrase of 2 characters or fewer', async () => {
    const response = await get('/api/data-sources/rss/list?search=%20ne%20');
    expect(response.json().results).toHaveLength(RSS_CATALOGUE.length);
  });

  it('answers 401 without a token', async () => {
    expect((await get('/api/data-sources/rss/list', {})).statusCode).toBe(401);
  });
});

describe('GET /api/data-sources/rss/feed', () => {
  it('answers docs/design.md §5 { feed: { title, link, favicon }, items } with SPEC defaults (6 posts, paragraph, images)', async () => {
    const response = await feed('rss2.xml');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.feed).toEqual({
      title: 'Field Notes & Dispatches',
      link: 'https://fieldnotes.example.com/',
      favicon: 'https://fieldnotes.example.com/images/logo-144.png',
      url: expect.stringMatching(/\/feeds\/rss2\.xml$/),
    });
    expect(body.items).toHaveLength(6);
    expect(body.items[0]).toEqual({
      title: 'The night shift that keeps the trams running',
      content: "<p>Between 1 and 5 a.m., forty engineers rebuild a city's tracks one sleeper at a time.</p>",
      creator: 'Maya Okafor',
      link: 'https://fieldnotes.example.com/2026/11/night-shift-trams',
      pubDate: '2026-11-21T06:00:00.000Z',
      image: 'https://fieldnotes.example.com/images/2026/night-shift-thumb.jpg',
    });
  });

  it('applies limit, image and body', async () => {
    const hidden = (await feed('rss2.xml', '&limit=2&image=hide&body=full')).json();
    expect(hidden.items).toHaveLength(2);
    expect(hidden.items[0].image).toBe('');
    expect(hidden.items[0].content).not.toContain('<img');
    const none = (await feed('rss2.xml', '&limit=0&body=hide')).json();
    expect(none.items).toEqual([]);
    const bare = (await feed('atom.xml', '&body=hide&image=show')).json();
    expect(bare.items.every((item: { content: string; image: string }) => !item.content && !item.image)).toBe(
      true,
    );
  });

  it('discovers the feed of an HTML page', async () => {
    const response = await feed('page-with-feed.html', '&limit=1');
    expect(response.statusCode).toBe(200);
    expect(response.json().feed.title).toBe('Field Notes & Dispatches');
    // The builder saves this address, the feed itself, and keeps the page only to show it.
    expect(response.json().feed.url).toMatch(/\/feeds\/rss2\.xml$/);
  });

  it('answers sanitised HTML only', async () => {
    const response = await feed('xss.xml', '&body=full');
    expect(response.statusCode).toBe(200);
    const contents = response
      .json()
      .items.map((item: { content: string }) => item.content)
      .join('\n');
    expect(contents).not.toMatch(/<script|onerror|onclick|javascript:|<iframe|<form|style=/i);
    expect(contents).toContain('Hello reader.');
  });

  it.each([
    ['an ftp URL', `url=${encodeURIComponent('ftp://example.com/feed.xml')}`, 'url'],
    ['no URL', 'limit=3', 'url'],
    [
      'a URL over 2048 characters',
      `url=${encodeURIComponent(`https://example.com/${'a'.repeat(2050)}`)}`,
      'url',
    ],
    ['limit 51', `url=${encodeURIComponent('https://example.com/feed')}&limit=51`, 'limit'],
    ['limit -1', `url=${encodeURIComponent('https://example.com/feed')}&limit=-1`, 'limit'],
    ['image=maybe', `url=${encodeURIComponent('https://example.com/feed')}&image=maybe`, 'image'],
    ['body=summary', `url=${encodeURIComponent('https://example.com/feed')}&body=summary`, 'body'],
  ])('answers 400 naming the field for %s', async (_case, query, field) => {
    const response = await get(`/api/data-sources/rss/feed?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
  });

  it.each([
    ['a page without a feed', 'page-without-feed.html', 404, 'No feed found at this address'],
    ['a missing feed', 'missing.xml', 404, 'The feed answered 404: not found'],
    [
      'something that is not a feed',
      'not-a-feed.txt',
      502,
      'The address answered with something that is not a feed',
    ],
    ['a feed over the size cap', 'huge.xml', 422, 'The feed answered with too much data'],
  ])('answers %s with a clear status and message', async (_case, name, status, message) => {
    const response = await feed(name);
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toBe(message);
  });

  it('answers a feed with a hostile DOCTYPE (billion laughs, external entity) with nothing expanded', async () => {
    const response = await feed('billion-laughs.xml');
    expect(response.statusCode).toBe(200);
    expect(response.json().feed.title).toBe('&lol9;');
    expect(response.body).not.toMatch(/lollol|root:/);
  });

  it('answers 502 when the feed’s server fails', async () => {
    fakes.setFailure('/feeds', { status: 500, body: 'oops' });
    // A feed this app has not read yet: one it has read would come from its cache.
    const response = await feed('rdf.xml');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 'SOURCE_UPSTREAM', message: 'The feed answered 500' });
  });

  it('answers 401 without a token', async () => {
    const response = await get(
      `/api/data-sources/rss/feed?url=${encodeURIComponent(`${fakes.origin}/feeds/rss2.xml`)}`,
      {},
    );
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/data-sources/rss/feed on a server that does not allow private addresses', () => {
  let closedApi: TestApi;
  let closedUser: TestUser;
  beforeAll(async () => {
    closedApi = await startTestApi();
    closedUser = await signUp(closedApi);
  });
  afterAll(() => closedApi?.close());

  it('refuses a feed on 127.0.0.1 (SSRF) with 502 "could not be reached" before any request reaches it', async () => {
    fakes.resetHits();
    const response = await closedApi.app.inject({
      method: 'GET',
      url: `/api/data-sources/rss/feed?url=${encodeURIComponent(`${fakes.origin}/feeds/rss2.xml`)}`,
      headers: closedUser.headers,
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ code: 'SOURCE_UNREACHABLE', message: 'The feed could not be reached' });
    expect(fakes.hits('/feeds')).toBe(0);
  });

  it('answers a private address, a metadata address, another port and a name that does not resolve alike', async () => {
    const feedUrls = [
      'http://10.1.2.3/feed.xml',
      'http://169.254.169.254/latest/meta-data/',
      'http://93.184.216.34:22/feed.xml',
      'http://no-such-host.invalid/feed.xml',
    ];
    const answers = [];
    for (const url of feedUrls) {
      const response = await closedApi.app.inject({
        method: 'GET',
        url: `/api/data-sources/rss/feed?url=${encodeURIComponent(url)}`,
        headers: closedUser.headers,
      });
      answers.push({ status: response.statusCode, body: response.json() });
    }
    const one = {
      status: 502,
      body: { code: 'SOURCE_UNREACHABLE', message: 'The feed could not be reached' },
    };
    expect(answers).toEqual(feedUrls.map(() => one));
  });
});
