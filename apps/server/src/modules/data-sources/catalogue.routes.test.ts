import { dataSourcesResponseSchema, SOURCE_TYPES } from '@digest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { productHuntFake } from '#test/fakes/providers/product-hunt';
import { youtubeFake } from '#test/fakes/providers/youtube';

let fakes: FakeProviders;
/** Every provider credential set. */
let configured: TestApi;
/** The same providers, without YOUTUBE_API_KEY and PRODUCT_HUNT_TOKEN. */
let bare: TestApi;
let user: TestUser;
/** The same user signed in to `bare` (each app signs its own tokens). */
let bareHeaders: Record<string, string>;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [youtubeFake(), productHuntFake()] });
  configured = await startTestApi({ fakes });
  const { YOUTUBE_API_KEY: _key, PRODUCT_HUNT_TOKEN: _token, ...withoutCredentials } = fakes.env;
  bare = await startTestApi({ fakes: { env: withoutCredentials }, database: configured.database });
  user = await signUp(configured);
  bareHeaders = { authorization: `Bearer ${(await bare.sessionFor(user.userId)).accessToken}` };
});
afterAll(async () => {
  await bare?.close();
  await configured?.close();
  await fakes?.close();
});

const get = (api: TestApi, url: string, headers = api === bare ? bareHeaders : user.headers) =>
  api.app.inject({ method: 'GET', url, headers });

async function catalogue(api: TestApi) {
  const response = await get(api, '/api/data-sources');
  expect(response.statusCode).toBe(200);
  const { dataSources } = dataSourcesResponseSchema.parse(response.json());
  return Object.fromEntries(dataSources.map((source) => [source.type, source]));
}

describe('GET /api/data-sources', () => {
  it('lists every source kind once, in order, with its name, data path, category and account', async () => {
    const response = await get(configured, '/api/data-sources');
    const { dataSources } = dataSourcesResponseSchema.parse(response.json());
    expect(dataSources.map((source) => source.type)).toEqual([...SOURCE_TYPES]);
    const byType = await catalogue(configured);
    expect(byType.YOUTUBE).toEqual({
      type: 'YOUTUBE',
      name: 'YouTube',
      path: 'youtube',
      category: 'socials',
      popular: true,
      accountProvider: null,
      configured: true,
      searchConfigured: true,
    });
    expect(byType.DATE).toMatchObject({ name: "Today's Date", path: null, configured: true });
    expect(byType.TWITTER_LIST).toMatchObject({ path: 'twitter', accountProvider: 'TWITTER' });
    expect(byType.GOOGLE_CALENDAR).toMatchObject({ accountProvider: 'GOOGLE' });
    expect(byType.STRIPE).toMatchObject({ accountProvider: 'STRIPE', category: 'finance' });
  });

  it('counts Product Hunt and YouTube search as configured when the server has their credentials', async () => {
    const byType = await catalogue(configured);
    expect(byType.PRODUCT_HUNT).toMatchObject({ configured: true });
    expect(byType.PRODUCT_HUNT?.reason).toBeUndefined();
    expect(byType.YOUTUBE).toMatchObject({ configured: true, searchConfigured: true });
  });

  it('says what this server lacks without their credentials, and serves Product Hunt without its token', async () => {
    const byType = await catalogue(bare);
    expect(byType.PRODUCT_HUNT).toMatchObject({ configured: true });
    expect(byType.PRODUCT_HUNT?.reason).toBeUndefined();
    expect(byType.YOUTUBE).toMatchObject({
      configured: true,
      searchConfigured: false,
      reason: 'YouTube search is not configured on this server',
    });
    expect(byType.HACKER_NEWS).toMatchObject({ configured: true });
  });

  it('answers 401 without a session', async () => {
    expect((await get(configured, '/api/data-sources', {})).statusCode).toBe(401);
  });
});

describe('sources whose credentials this server lacks', () => {
  it('answers Product Hunt from its public feed, with votes and comments unknown', async () => {
    const response = await get(bare, '/api/data-sources/product-hunt');
    expect(response.statusCode).toBe(200);
    const { items } = response.json();
    expect(items).toHaveLength(6);
    expect(items[0]).toMatchObject({ name: 'Lumen Notes', votesCount: null, commentsCount: null });
  });

  it('answers YouTube search with 503 while popular channels and channel videos still work', async () => {
    const search = await get(bare, '/api/data-sources/youtube/channels?search=science');
    expect(search.statusCode).toBe(503);
    expect(search.json().message).toBe('YouTube search is not configured on this server');
    const popular = await get(bare, '/api/data-sources/youtube/channels');
    expect(popular.statusCode).toBe(200);
    expect(popular.json().channels).toHaveLength(10);
    const videos = await get(bare, '/api/data-sources/youtube/videos?channelId=UCHnyfMqiRRG1u-2MsSQLbXA');
    expect(videos.statusCode).toBe(200);
    expect(videos.json().videos).toHaveLength(6);
  });
});
