import { type YoutubeSource, youtubeSourceSchema } from '@digest/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeProvidersForFile,
  HANG_TIMEOUT_MS,
  providerFailureCases,
  sourceFailure,
  withProviderFailure,
} from '#server/sources/sources.test-support';
import { youtubeFake } from '#test/fakes/providers/youtube';
import { youtubeConnector } from './youtube.connector';

const VERITASIUM = 'UCHnyfMqiRRG1u-2MsSQLbXA';
const BEN_EATER = 'UCS0N5baNlQWJCUrhCEo8WlA';

const youtube = youtubeFake();
const fakes = fakeProvidersForFile([youtube], '/youtube');
afterEach(() => youtube.feedOutage(undefined));

/** Fresh deps (no cached answer from an earlier test); `env` replaces the fakes' variables. */
function videos(
  settings: Partial<YoutubeSource> = {},
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
) {
  const deps = connectorDeps({ env: options.env ?? fakes.env }, { timeoutMs: options.timeoutMs });
  const source = youtubeSourceSchema.parse({ type: 'YOUTUBE', channelId: VERITASIUM, ...settings });
  return youtubeConnector(deps).fetchContent(source, { userId: 'user-1', timezone: 'UTC', locale: 'en-US' });
}

describe('a channel’s videos', () => {
  it('gives the newest 6 by default with title, date, watch link and hqdefault cover, and the channel’s name', async () => {
    const content = await videos();
    expect(content.channelId).toBe(VERITASIUM);
    expect(content.channelName).toBe('Veritasium');
    expect(content.videos).toHaveLength(6);
    expect(content.videos[0]).toEqual({
      title: 'Why No One Has Measured The Speed Of Light',
      date: '2026-11-19T14:00:12.000Z',
      link: 'https://www.youtube.com/watch?v=8wpD2wrHAsf',
      cover: 'https://i1.ytimg.com/vi/8wpD2wrHAsf/hqdefault.jpg',
    });
    expect(content.videos[5]?.title).toBe('Is Math Discovered or Invented? <A Deep Dive>');
  });

  it('gives exactly numberOfPosts videos from 0 to 10, and all there are when the channel has fewer', async () => {
    expect((await videos({ numberOfPosts: 0 })).videos).toEqual([]);
    expect((await videos({ numberOfPosts: 10 })).videos).toHaveLength(10);
    const few = await videos({ channelId: BEN_EATER, numberOfPosts: 10 });
    expect(few.channelName).toBe('Ben Eater');
    expect(few.videos.map((video) => video.title)).toEqual([
      'Building an 8-bit breadboard computer: the clock module',
      'How do CPUs read machine code? — 6502 part 2',
      'Hello, world from scratch on a 6502 — Part 1',
    ]);
  });

  it('leaves every cover empty with images hidden', async () => {
    const content = await videos({ images: 'hide' });
    expect(content.videos).toHaveLength(6);
    expect(content.videos.every((video) => video.cover === '')).toBe(true);
  });

  it('reads the feed without an API key', async () => {
    const { YOUTUBE_API_KEY: _key, ...withoutKey } = fakes.env;
    const content = await videos({}, { env: withoutKey });
    expect(content.videos).toHaveLength(6);
  });

  it('reads one channel’s feed once for any number of concurrent digests', async () => {
    const deps = connectorDeps(fakes);
    const connector = youtubeConnector(deps);
    const source = youtubeSourceSchema.parse({ type: 'YOUTUBE', channelId: VERITASIUM });
    const context = { userId: 'user-1', timezone: 'UTC', locale: 'en-US' };
    await Promise.all(Array.from({ length: 10 }, () => connector.fetchContent(source, context)));
    expect(fakes.hits('/youtube', '/feeds/videos.xml')).toBe(1);
  });
});

describe('when YouTube fails', () => {
  it('names the channel YouTube does not know (its feed answers 404)', async () => {
    const error = await sourceFailure(videos({ channelId: 'UCnoSuchChannel000000000' }));
    expect(error).toMatchObject({ kind: 'not_found', statusCode: 404 });
    expect(error.message).toBe('YouTube has no channel UCnoSuchChannel000000000');
  });

  it('says YouTube is not answering, not "no such channel", when every feed answers 404', async () => {
    youtube.feedOutage(404);
    const error = await sourceFailure(videos());
    expect(error).toMatchObject({
      kind: 'upstream',
      statusCode: 502,
      message:
        'YouTube is not answering channel feeds right now (it answered 404 for every channel): try again later',
    });
  });

  it('says the same of a feed server answering 500, and reads the channel again once it is back', async () => {
    youtube.feedOutage(500);
    const error = await sourceFailure(videos());
    expect(error).toMatchObject({
      kind: 'upstream',
      message: 'YouTube is not answering channel feeds right now (it answered 500): try again later',
    });
    youtube.feedOutage(undefined);
    expect((await videos()).videos).toHaveLength(6);
  });

  for (const { rule, failure, error } of providerFailureCases('YouTube')) {
    if (error.kind === 'upstream') continue;
    it(`${rule}: ${error.kind}, "${error.message}"`, async () => {
      const caught = await withProviderFailure(fakes, '/youtube', failure, () =>
        sourceFailure(videos({}, { timeoutMs: failure === 'hang' ? HANG_TIMEOUT_MS : undefined })),
      );
      expect(caught).toMatchObject(error);
    });
  }

  it('reads a feed with a DOCTYPE without expanding the entity it declares', async () => {
    fakes.setFailure('/youtube', {
      status: 200,
      headers: { 'content-type': 'text/xml' },
      body: '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">]><feed xmlns="http://www.w3.org/2005/Atom"><title>&a;</title><entry><title>&a; &amp; b</title><link rel="alternate" href="https://www.youtube.com/watch?v=x"/><published>2024-01-02T03:04:05Z</published></entry></feed>',
    });
    const content = await videos();
    expect(content.videos.map((video) => video.title)).toEqual(['&a; & b']);
  });
});
