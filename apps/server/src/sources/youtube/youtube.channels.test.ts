import { describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeEnv,
  fakeProvidersForFile,
  itReportsProviderFailures,
  sourceFailure,
  withProviderFailure,
} from '#server/sources/sources.test-support';
import { youtubeFake } from '#test/fakes/providers/youtube';
import { youtubeChannels } from './youtube.channels';
import { youtubeClient } from './youtube.client';
import { POPULAR_YOUTUBE_CHANNELS } from './youtube.popular-channels';

const fakes = fakeProvidersForFile([youtubeFake()], '/youtube');

/** Fresh deps (no cached answer); `env` overrides some of the fakes' variables, undefined removes one. */
function channels(options: { timeoutMs?: number; env?: Record<string, string | undefined> } = {}) {
  const deps = connectorDeps(fakeEnv(fakes, options.env), {
    timeoutMs: options.timeoutMs,
  });
  return youtubeChannels(youtubeClient(deps), deps.providers);
}

describe('channel search', () => {
  it('lists the matching channels in the search’s order with title, full description, subscribers and icon', async () => {
    const found = await channels().list({ search: 'math numbers', limit: 10 });
    expect(found.map((channel) => channel.title)).toEqual(['3Blue1Brown', 'Numberphile']);
    expect(found[0]).toEqual({
      channelId: 'UCYO_jab_esuFRV4b17AJtAw',
      title: '3Blue1Brown',
      description:
        'My name is Grant Sanderson. Videos here cover a variety of topics in math, or adjacent fields like physics and CS, all with an emphasis on visualizing the core ideas.',
      subscribers: 7_020_000,
      icon: expect.stringMatching(/^https:\/\/yt3\.ggpht\.com\/.+=s88-c-k-c0x00ffffff-no-rj$/),
    });
  });

  it('gives at most `limit` channels', async () => {
    const found = await channels().list({ search: 'science videos', limit: 3 });
    expect(found).toHaveLength(3);
    expect(fakes.hits('/youtube', '/v3/search')).toBe(1);
    expect(fakes.hits('/youtube', '/v3/channels')).toBe(1);
  });

  it('counts 0 subscribers for a channel that hides them', async () => {
    const [benEater] = await channels().list({ search: 'networking', limit: 10 });
    expect(benEater).toMatchObject({ title: 'Ben Eater', subscribers: 0 });
  });

  it('answers an empty list when nothing matches, without asking for channel details', async () => {
    expect(await channels().list({ search: 'zzzqqq', limit: 10 })).toEqual([]);
    expect(fakes.hits('/youtube', '/v3/channels')).toBe(0);
  });

  it('lists the popular channels for a phrase of 2 characters or fewer', async () => {
    const found = await channels().list({ search: ' ab ', limit: 10 });
    expect(found.map((channel) => channel.channelId)).toEqual(
      POPULAR_YOUTUBE_CHANNELS.slice(0, 10).map((channel) => channel.channelId),
    );
    expect(fakes.hits('/youtube', '/v3/search')).toBe(0);
  });
});

describe('popular channels', () => {
  it('refreshes the curated channels from the Data API when the server has a key', async () => {
    const found = await channels().list({ limit: 50 });
    expect(found).toHaveLength(POPULAR_YOUTUBE_CHANNELS.length);
    expect(found.find((channel) => channel.title === 'Veritasium')).toMatchObject({
      subscribers: 17_900_000,
      icon: expect.stringMatching(/^https:\/\/yt3\.ggpht\.com\//),
    });
    // Channels the API does not answer for keep their curated entry.
    const curatedLinus = POPULAR_YOUTUBE_CHANNELS.find((channel) => channel.title === 'Linus Tech Tips');
    expect(found.find((channel) => channel.title === 'Linus Tech Tips')).toEqual(curatedLinus);
    expect(fakes.hits('/youtube', '/v3/channels')).toBe(1);
  });

  it('serves the curated channels as they are without a key, asking YouTube nothing', async () => {
    const found = await channels({ env: { YOUTUBE_API_KEY: undefined } }).list({ limit: 5 });
    expect(found).toEqual(POPULAR_YOUTUBE_CHANNELS.slice(0, 5));
    expect(fakes.hits('/youtube')).toBe(0);
  });

  it('falls back to the curated channels when the Data API fails', async () => {
    fakes.setFailure('/youtube', { status: 500, body: { error: { code: 500, message: 'Backend Error' } } });
    expect(await channels().list({ limit: 4 })).toEqual(POPULAR_YOUTUBE_CHANNELS.slice(0, 4));
  });
});

describe('when channel search cannot work', () => {
  it('says search is not configured when the server has no key', async () => {
    const error = await sourceFailure(
      channels({ env: { YOUTUBE_API_KEY: undefined } }).list({ search: 'science', limit: 10 }),
    );
    expect(error).toMatchObject({ kind: 'not_configured', statusCode: 503 });
    expect(error.message).toBe('YouTube search is not configured on this server');
  });

  it('says YouTube refused the server’s key when the key is wrong', async () => {
    const error = await sourceFailure(
      channels({ env: { YOUTUBE_API_KEY: 'not-the-key' } }).list({ search: 'science', limit: 10 }),
    );
    expect(error).toMatchObject({ kind: 'unauthorized', statusCode: 502 });
    expect(error.message).toBe("YouTube refused the server's API key (not valid)");
  });

  /** The Data API's error body. */
  const dataApiError = (code: number, reason: string, message: string, status: string) => ({
    error: { code, message, errors: [{ message, domain: 'youtube.quota', reason }], status },
  });

  it('says the server’s daily quota is used up, and when it comes back, on 403 quotaExceeded', async () => {
    const quota = dataApiError(
      403,
      'quotaExceeded',
      'The request cannot be completed because you have exceeded your quota.',
      'PERMISSION_DENIED',
    );
    const error = await withProviderFailure(fakes, '/youtube', { status: 403, body: quota }, () =>
      sourceFailure(channels().list({ search: 'science', limit: 10 })),
    );
    expect(error).toMatchObject({ kind: 'rate_limited', statusCode: 429 });
    expect(error.message).toBe(
      "YouTube search used up this server's daily quota: it works again after midnight Pacific time",
    );
  });

  it('says the Data API is not enabled for the key on 403 accessNotConfigured', async () => {
    const disabled = dataApiError(
      403,
      'accessNotConfigured',
      'YouTube Data API v3 has not been used in project 1',
      'PERMISSION_DENIED',
    );
    const error = await withProviderFailure(fakes, '/youtube', { status: 403, body: disabled }, () =>
      sourceFailure(channels().list({ search: 'science', limit: 10 })),
    );
    expect(error).toMatchObject({ kind: 'not_configured', statusCode: 503 });
    expect(error.message).toBe("The YouTube Data API is not enabled for this server's API key");
  });

  itReportsProviderFailures({
    fakes,
    prefix: '/youtube',
    provider: 'YouTube',
    also: {
      notJson: true,
      shape: { items: [{ id: 'not an object' }] },
      messages: {
        rate_limited: 'YouTube is limiting requests right now: retry in 30 s',
        upstream: 'YouTube is not answering right now (it answered 500): try again later',
      },
    },
    read: (timeoutMs) => channels({ timeoutMs }).list({ search: 'science', limit: 10 }),
  });
});

describe('a pasted channel, handle or video address', () => {
  const keyless = () => channels({ env: { YOUTUBE_API_KEY: undefined } });
  const veritasium = {
    channelId: 'UCHnyfMqiRRG1u-2MsSQLbXA',
    title: 'Veritasium',
    description: '',
    subscribers: 0,
    icon: '',
  };

  it.each([
    'https://www.youtube.com/@veritasium',
    '@Veritasium',
    'https://www.youtube.com/channel/UCHnyfMqiRRG1u-2MsSQLbXA',
    'https://youtu.be/8wpD2wrHAsf',
  ])('without a key, %s is resolved to its channel and named by its feed', async (address) => {
    expect(await keyless().list({ search: address, limit: 10 })).toEqual([veritasium]);
    expect(fakes.hits('/youtube', '/v3')).toBe(0);
  });

  it('with a key, the channel comes with its description, subscribers and avatar', async () => {
    const [channel] = await channels().list({ search: 'youtube.com/@fireship', limit: 10 });
    expect(channel).toMatchObject({ channelId: 'UCsBjURrPoezykLs9EqgamOA', title: 'Fireship' });
    expect(channel?.subscribers).toBeGreaterThan(0);
    expect(channel?.icon).toMatch(/^https:\/\//);
  });

  it('says YouTube has no channel at an address that names none', async () => {
    for (const address of ['https://www.youtube.com/@nobody-here', 'https://youtu.be/AAAAAAAAAAA']) {
      const error = await sourceFailure(keyless().list({ search: address, limit: 10 }));
      expect(error).toMatchObject({ kind: 'not_found', statusCode: 404 });
      expect(error.message).toBe('YouTube has no channel at that address');
    }
  });

  it('says so when the channel an address names has no feed', async () => {
    const error = await sourceFailure(
      keyless().list({ search: 'https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa', limit: 10 }),
    );
    expect(error).toMatchObject({ kind: 'not_found' });
    expect(error.message).toBe('YouTube has no channel UCaaaaaaaaaaaaaaaaaaaaaa');
  });
});
