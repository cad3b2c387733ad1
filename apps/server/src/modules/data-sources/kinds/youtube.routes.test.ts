import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { POPULAR_YOUTUBE_CHANNELS } from '#server/sources/youtube/youtube.popular-channels';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { youtubeFake } from '#test/fakes/providers/youtube';

let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [youtubeFake()] });
  api = await startTestApi({ fakes });
  user = await signUp(api);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/youtube', undefined));

const get = (url: string, headers: Record<string, string> = user.headers) =>
  api.app.inject({ method: 'GET', url, headers });

describe('GET /api/data-sources/youtube/channels', () => {
  it('lists 10 popular channels without a search phrase', async () => {
    const response = await get('/api/data-sources/youtube/channels');
    expect(response.statusCode).toBe(200);
    const { channels } = response.json();
    expect(channels).toHaveLength(10);
    expect(channels.map((channel: { channelId: string }) => channel.channelId)).toEqual(
      POPULAR_YOUTUBE_CHANNELS.slice(0, 10).map((channel) => channel.channelId),
    );
  });

  it('searches with a phrase of more than 2 characters', async () => {
    const response = await get('/api/data-sources/youtube/channels?search=math%20numbers&limit=5');
    expect(response.statusCode).toBe(200);
    expect(response.json().channels).toEqual([
      expect.objectContaining({
        channelId: 'UCYO_jab_esuFRV4b17AJtAw',
        title: '3Blue1Brown',
        subscribers: 7_020_000,
      }),
      expect.objectContaining({
        channelId: 'UCoxcjq-8xIDTYp3uz647V5A',
        title: 'Numberphile',
        subscribers: 4_610_000,
      }),
    ]);
  });

  it('refuses a limit outside 1..50 with 400', async () => {
    for (const limit of ['0', '51', 'ten']) {
      const response = await get(`/api/data-sources/youtube/channels?limit=${limit}`);
      expect(response.statusCode, limit).toBe(400);
      expect(response.json().message).toMatch(/limit/);
    }
  });

  it('answers YouTube’s rate limit with 429 and Retry-After', async () => {
    fakes.setFailure('/youtube', { status: 429, headers: { 'retry-after': '30' } });
    const response = await get('/api/data-sources/youtube/channels?search=rate%20limited');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toEqual({
      message: 'YouTube is limiting requests right now: retry in 30 s',
      code: 'SOURCE_RATE_LIMITED',
    });
  });

  it('answers 401 without a session', async () => {
    expect((await get('/api/data-sources/youtube/channels', {})).statusCode).toBe(401);
  });
});

describe('GET /api/data-sources/youtube/videos', () => {
  it('gives the channel’s 6 newest videos by default, with covers', async () => {
    const response = await get('/api/data-sources/youtube/videos?channelId=UCsBjURrPoezykLs9EqgamOA');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ channelId: 'UCsBjURrPoezykLs9EqgamOA', channelName: 'Fireship' });
    expect(body.videos).toHaveLength(6);
    expect(body.videos[0]).toEqual({
      title: 'Bun 2.0 in 100 Seconds',
      date: '2026-11-20T17:30:01.000Z',
      link: 'https://www.youtube.com/watch?v=ZcbqUQQg_w6',
      cover: 'https://i3.ytimg.com/vi/ZcbqUQQg_w6/hqdefault.jpg',
    });
  });

  it('gives `limit` videos from 0 to 10 and refuses other limits with 400', async () => {
    const none = await get('/api/data-sources/youtube/videos?channelId=UCsBjURrPoezykLs9EqgamOA&limit=0');
    expect(none.json().videos).toEqual([]);
    const two = await get('/api/data-sources/youtube/videos?channelId=UCsBjURrPoezykLs9EqgamOA&limit=2');
    expect(two.json().videos).toHaveLength(2);
    for (const limit of ['11', '-1', '2.5']) {
      const response = await get(
        `/api/data-sources/youtube/videos?channelId=UCsBjURrPoezykLs9EqgamOA&limit=${limit}`,
      );
      expect(response.statusCode, limit).toBe(400);
    }
  });

  it('refuses a missing or malformed channel id with 400', async () => {
    expect((await get('/api/data-sources/youtube/videos')).statusCode).toBe(400);
    const response = await get('/api/data-sources/youtube/videos?channelId=..%2F..%2Fetc');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Channel id must be letters, digits, - or _/);
  });

  it('answers 404 naming a channel YouTube does not know', async () => {
    const response = await get('/api/data-sources/youtube/videos?channelId=UCnoSuchChannel000000000');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'YouTube has no channel UCnoSuchChannel000000000',
      code: 'SOURCE_NOT_FOUND',
    });
  });

  it('answers 401 without a session', async () => {
    const response = await get('/api/data-sources/youtube/videos?channelId=UCsBjURrPoezykLs9EqgamOA', {});
    expect(response.statusCode).toBe(401);
  });
});
