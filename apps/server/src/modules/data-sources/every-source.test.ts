import { SOURCE_TYPES, type SourceInput, sourceSchema } from '@digest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAccount } from '#server/modules/accounts/test-support';
import { receiveTestNewsletter } from '#server/modules/newsletters/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { createConnectors, fetchSourceContent } from '#server/sources/connectors';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';

// The promise of `npm run dev`: against the fake providers, with the production wiring, a signed-in
// user lists and previews every source kind through the API, and every kind's connector gives content.
let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
const tokenIds = { google: '', twitter: '', stripe: '' };

beforeAll(async () => {
  fakes = await startFakeProviders();
  api = await startTestApi({ fakes });
  user = await signUp(api);
  tokenIds.google = await connectAccount(api, user, 'google');
  tokenIds.twitter = await connectAccount(api, user, 'twitter');
  tokenIds.stripe = await connectAccount(api, user, 'stripe');
  await receiveTestNewsletter(api.database.db, user.userId);
});

afterAll(async () => {
  await api?.close();
  await fakes?.close();
});

const get = (url: string) => api.app.inject({ method: 'GET', url, headers: user.headers });

describe('every data-source call answers a signed-in user against the fake providers', () => {
  const calls = () => [
    '/api/data-sources',
    '/api/data-sources/weather/locations?search=Warsaw',
    '/api/data-sources/weather?latitude=52.23&longitude=21.01&forecastIntervalType=5',
    '/api/data-sources/hacker-news?latest=false&showHN=true&askHN=true&count=10',
    '/api/data-sources/rss/list',
    `/api/data-sources/rss/feed?url=${encodeURIComponent(`${fakes.origin}/feeds/rss2.xml`)}&limit=6`,
    '/api/data-sources/reddit?limit=20',
    '/api/data-sources/reddit/programming?limit=6',
    '/api/data-sources/youtube/channels',
    '/api/data-sources/youtube/videos?channelId=UCsBjURrPoezykLs9EqgamOA&limit=6',
    '/api/data-sources/product-hunt?limit=6',
    '/api/data-sources/social-accounts/list',
    `/api/data-sources/twitter/users?queryType=suggestions&tokenId=${tokenIds.twitter}`,
    `/api/data-sources/twitter/timeline?tokenId=${tokenIds.twitter}`,
    `/api/data-sources/twitter/list?tokenId=${tokenIds.twitter}`,
    `/api/data-sources/stripe?tokenIds=${tokenIds.stripe}`,
  ];

  it('answers 200 with content for every listing and preview', async () => {
    for (const url of calls()) {
      const response = await get(url);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 200 });
      expect(JSON.stringify(response.json()).length, url).toBeGreaterThan(20);
    }
  });

  it("previews every feed of the RSS list offline, through the fake providers' feed mirror", async () => {
    const { results } = (await get('/api/data-sources/rss/list')).json() as {
      results: { platformId: string }[];
    };
    expect(results.length).toBeGreaterThan(20);
    for (const { platformId } of results) {
      const response = await get(`/api/data-sources/rss/feed?url=${encodeURIComponent(platformId)}`);
      expect({ platformId, status: response.statusCode }).toEqual({ platformId, status: 200 });
      expect(response.json().items.length).toBeGreaterThan(0);
    }
  });

  it('previews a calendar from its settings', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/data-sources/google-calendar',
      headers: user.headers,
      payload: { settings: { type: 'GOOGLE_CALENDAR', selectedEvents: [{ tokenId: tokenIds.google }] } },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('every source kind has a connector that gives content', () => {
  const sources = (): SourceInput[] => [
    { type: 'WEATHER', latitude: 52.23, longitude: 21.01, locationName: 'Warsaw' },
    { type: 'HACKER_NEWS' },
    { type: 'DATE' },
    { type: 'RSS', feedLink: `${fakes.origin}/feeds/atom.xml` },
    { type: 'NEWSLETTERS', layout: 'full' },
    { type: 'REDDIT', sourceName: 'programming' },
    { type: 'GOOGLE_CALENDAR', selectedEvents: [{ tokenId: tokenIds.google }] },
    { type: 'TWITTER_TWEETS', tokenId: tokenIds.twitter, twitterUsers: [followed] },
    { type: 'TWITTER_TIMELINE', tokenId: tokenIds.twitter },
    { type: 'TWITTER_SEARCH', tokenId: tokenIds.twitter, search: 'compiler' },
    { type: 'TWITTER_LIST', tokenId: tokenIds.twitter, listId: '1600000000000000001' },
    { type: 'YOUTUBE', channelId: 'UCsBjURrPoezykLs9EqgamOA' },
    { type: 'PRODUCT_HUNT' },
    { type: 'STRIPE', stripeAccounts: [{ tokenId: tokenIds.stripe }] },
  ];
  const followed = { twitterUserId: '1111111111', username: 'gracechen' };

  it('covers all kinds', () => {
    expect(new Set(sources().map((source) => source.type))).toEqual(new Set(SOURCE_TYPES));
  });

  it.each(SOURCE_TYPES)('%s', async (type) => {
    const connectors = createConnectors(api.sources);
    const source = sourceSchema.parse(sources().find((candidate) => candidate.type === type));
    const context = { userId: user.userId, timezone: 'Europe/Warsaw', locale: 'en-US' };
    const content = await fetchSourceContent(connectors, source, context);
    const lists = Object.values(content).filter(Array.isArray);
    if (type === 'DATE') expect(content).toMatchObject({ timezone: 'Europe/Warsaw' });
    else
      expect(
        lists.some((list) => list.length > 0),
        JSON.stringify(content).slice(0, 300),
      ).toBe(true);
  });
});
