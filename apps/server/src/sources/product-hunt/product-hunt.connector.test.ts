import { type ProductHuntSource, productHuntSourceSchema } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import type { Clock } from '#server/platform/clock';
import {
  connectorDeps,
  fakeEnv,
  fakeProvidersForFile,
  itReportsProviderFailures,
  itSaysProviderDown,
  providerDownMessage,
  sourceFailure,
  withProviderFailure,
} from '#server/sources/sources.test-support';
import { productHuntFake } from '#test/fakes/providers/product-hunt';
import { startOfProductHuntDay } from './product-hunt.client';
import { productHuntConnector } from './product-hunt.connector';

const productHunt = productHuntFake();
const fakes = fakeProvidersForFile([productHunt], '/product-hunt');

interface Options {
  timeoutMs?: number;
  clock?: Clock;
  /** Overrides of the fakes' variables; undefined removes one. */
  env?: Record<string, string | undefined>;
}

function connector(options: Options = {}) {
  const deps = connectorDeps(fakeEnv(fakes, options.env), {
    timeoutMs: options.timeoutMs,
    clock: options.clock,
  });
  return productHuntConnector(deps);
}

const CONTEXT = { userId: 'user-1', timezone: 'Europe/Warsaw', locale: 'en-US' };

function launches(settings: Partial<ProductHuntSource> = {}, options: Options = {}) {
  const source = productHuntSourceSchema.parse({ type: 'PRODUCT_HUNT', ...settings });
  return connector(options).fetchContent(source, CONTEXT);
}

/** The first six launches of the recordings: the API's ranking, and the feed's order. */
const FIRST_SIX = [
  'Lumen Notes',
  'Shipfast Docs',
  'Tidy Inbox',
  'Orbit Calendar',
  'Pixel Palette',
  'Quill API',
];

describe("today's launches", () => {
  it('gives the 6 best ranked by default with name, tagline, first paragraph, thumbnail, votes, comments and page', async () => {
    const { items } = await launches();
    expect(items).toHaveLength(6);
    expect(items.map((item) => item.name)).toEqual(FIRST_SIX);
    expect(items[0]).toEqual({
      name: 'Lumen Notes',
      tagline: 'Your second brain, now with offline AI search',
      description:
        '<p>Lumen Notes is a fast, local-first notes app. Everything you write is indexed on your device, so search and summaries work on a plane.</p>',
      thumbnail:
        'https://ph-files.imgix.net/b1b69871-8031-4573-a187-16769592adb5.png?auto=format&fit=crop&frame=1&h=512&w=512',
      votesCount: 812,
      commentsCount: 94,
      url: 'https://www.producthunt.com/posts/lumen-notes?utm_campaign=producthunt-api&utm_medium=api-v2&utm_source=Application%3A+Digest+%28ID%3A+148213%29',
    });
  });

  it('gives the whole description for full, its first paragraph for paragraph and none for hide', async () => {
    const [full] = (await launches({ postBody: 'full', numberOfPosts: 1 })).items;
    expect(full?.description).toBe(
      '<p>Lumen Notes is a fast, local-first notes app. Everything you write is indexed on your device, so search and summaries work on a plane.</p><p>Sync is end-to-end encrypted, and you can export every note as Markdown at any time.</p>',
    );
    const hidden = await launches({ postBody: 'hide', numberOfPosts: 10 });
    expect(hidden.items.every((item) => item.description === '')).toBe(true);
  });

  it('shows markup in a description as text, never as HTML', async () => {
    const tidy = (await launches({ postBody: 'full' })).items.find((item) => item.name === 'Tidy Inbox');
    expect(tidy?.description).not.toMatch(/<script|<b>/);
    expect(tidy?.description).toContain('&lt;script&gt;');
  });

  it('leaves the description of a launch without one empty', async () => {
    const pixel = (await launches({ postBody: 'full' })).items.find((item) => item.name === 'Pixel Palette');
    expect(pixel?.description).toBe('');
  });

  it('leaves thumbnails empty with images hidden, and for a launch without one', async () => {
    const hidden = await launches({ images: 'hide', numberOfPosts: 10 });
    expect(hidden.items.every((item) => item.thumbnail === '')).toBe(true);
    const shown = await launches({ numberOfPosts: 10 });
    const withoutThumbnail = shown.items.filter((item) => item.thumbnail === '').map((item) => item.name);
    expect(withoutThumbnail).toEqual(['Ledgerly']);
  });

  it("asks for the launches of today's Pacific day, so on a later day there are none yet", async () => {
    const twoDaysLater: Clock = { now: () => new Date(Date.now() + 2 * 24 * 3600 * 1000) };
    expect((await launches({}, { clock: twoDaysLater })).items).toEqual([]);
  });

  it('asks Product Hunt once for the same launches, however many digests want them', async () => {
    const shared = connector();
    const source = productHuntSourceSchema.parse({ type: 'PRODUCT_HUNT' });
    await Promise.all(Array.from({ length: 10 }, () => shared.fetchContent(source, CONTEXT)));
    await shared.fetchContent(source, CONTEXT);
    expect(fakes.hits('/product-hunt')).toBe(1);
  });
});

describe('the Product Hunt day', () => {
  it('starts at midnight Pacific time, standard or daylight', () => {
    expect(startOfProductHuntDay(new Date('2026-11-21T12:00:00Z'))).toBe('2026-11-21T08:00:00.000Z');
    expect(startOfProductHuntDay(new Date('2026-07-01T12:00:00Z'))).toBe('2026-07-01T07:00:00.000Z');
  });

  it('is still yesterday in the early UTC hours', () => {
    expect(startOfProductHuntDay(new Date('2026-11-21T05:00:00Z'))).toBe('2026-11-20T08:00:00.000Z');
  });
});

describe('when Product Hunt cannot be read', () => {
  it("says Product Hunt refused the server's token", async () => {
    const error = await sourceFailure(launches({}, { env: { PRODUCT_HUNT_TOKEN: 'revoked-token' } }));
    expect(error).toMatchObject({ kind: 'unauthorized', statusCode: 502 });
    expect(error.message).toBe("Product Hunt refused the server's token");
  });

  it('reports the message of a GraphQL error answered with 200', async () => {
    fakes.setFailure('/product-hunt', {
      status: 200,
      body: { errors: [{ message: 'Query has complexity of 1200, which exceeds max complexity of 1000' }] },
    });
    const error = await sourceFailure(launches());
    expect(error).toMatchObject({ kind: 'upstream' });
    expect(error.message).toBe(
      'Product Hunt refused the query: Query has complexity of 1200, which exceeds max complexity of 1000',
    );
  });

  it('backs off for the seconds X-Rate-Limit-Reset counts from now, and says when to retry', async () => {
    productHunt.limitReached(717);
    try {
      const error = await sourceFailure(launches({ numberOfPosts: 3 }));
      expect(error).toMatchObject({ kind: 'rate_limited', statusCode: 429 });
      // 717 s from now, not the epoch second 717 (which would be long past: retry at once).
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(716);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(717);
      expect(error.message).toMatch(/^Product Hunt answered 429: rate-limited, retry in 71[67] s$/);
    } finally {
      productHunt.limitReached(undefined);
    }
  });

  itReportsProviderFailures({
    fakes,
    prefix: '/product-hunt',
    provider: 'Product Hunt',
    also: { notJson: true, messages: { upstream: providerDownMessage('Product Hunt', 500) } },
    read: (timeoutMs) => launches({}, { timeoutMs }),
  });

  itSaysProviderDown({
    fakes,
    prefix: '/product-hunt',
    provider: 'Product Hunt',
    body: { errors: [{ error: 'server_error', error_description: 'Something went wrong' }] },
    read: () => launches(),
  });
});

/** Read as a server without PRODUCT_HUNT_TOKEN reads it: from the public feed. */
const keyless = (settings: Partial<ProductHuntSource> = {}, options: Options = {}) =>
  launches(settings, { ...options, env: { PRODUCT_HUNT_TOKEN: undefined, ...options.env } });

/** A feed of one entry whose content is `content` (HTML, escaped here as Atom carries it). */
function oneEntryFeed(content: string, extra = ''): string {
  const escaped = content.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
  <title>Product Hunt</title>
  <entry>
    <id>tag:www.producthunt.com,2005:Post/1</id>
    <link rel="alternate" type="text/html" href="https://www.producthunt.com/posts/one"/>
    <title>One</title>
    <content type="html">${escaped}</content>${extra}
  </entry>
</feed>`;
}

const atom = (body: string) => ({
  status: 200,
  headers: { 'content-type': 'application/atom+xml; charset=utf-8' },
  body,
});

describe.each([
  ['from the API', launches],
  ['from the public feed', keyless],
])('the number of launches %s', (_way, read) => {
  it('is exactly numberOfPosts, from 0 to 10', async () => {
    expect((await read({ numberOfPosts: 0 })).items).toEqual([]);
    expect((await read({ numberOfPosts: 1 })).items).toHaveLength(1);
    expect((await read({ numberOfPosts: 10 })).items).toHaveLength(10);
  });
});

describe('without a token: the public feed', () => {
  it("gives the 6 newest launches in the feed's order, with name, tagline as text and page, counts unknown", async () => {
    const { items } = await keyless();
    expect(items.map((item) => item.name)).toEqual(FIRST_SIX);
    expect(items[0]).toEqual({
      name: 'Lumen Notes',
      tagline: 'Your second brain, now with offline AI search',
      description: '',
      thumbnail: '',
      votesCount: null,
      commentsCount: null,
      url: 'https://www.producthunt.com/posts/lumen-notes',
    });
    expect(fakes.hits('/product-hunt', '/feed')).toBe(1);
    expect(fakes.hits('/product-hunt', '/v2/api/graphql')).toBe(0);
  });

  it('takes the picture an entry carries as its thumbnail, and none with images hidden', async () => {
    fakes.setFailure(
      '/product-hunt',
      atom(oneEntryFeed('<p>Tagline</p>', '<media:thumbnail url="https://ph-files.imgix.net/one.png"/>')),
    );
    expect((await keyless()).items[0]?.thumbnail).toBe('https://ph-files.imgix.net/one.png');
    expect((await keyless({ images: 'hide' })).items[0]?.thumbnail).toBe('');
  });

  it('keeps only the text of the first paragraph as the tagline, never markup', async () => {
    fakes.setFailure(
      '/product-hunt',
      atom(
        oneEntryFeed(
          '<p><b>Fast</b> notes &lt;script&gt;<script>alert(1)</script></p><p><a href="https://x.test">Link</a></p>',
        ),
      ),
    );
    expect((await keyless()).items[0]?.tagline).toBe('Fast notes <script>');
  });

  it('reads the feed once, however many digests want it', async () => {
    const shared = connector({ env: { PRODUCT_HUNT_TOKEN: undefined } });
    const source = productHuntSourceSchema.parse({ type: 'PRODUCT_HUNT' });
    await Promise.all(Array.from({ length: 10 }, () => shared.fetchContent(source, CONTEXT)));
    await shared.fetchContent(source, CONTEXT);
    expect(fakes.hits('/product-hunt', '/feed')).toBe(1);
  });

  it('says Product Hunt answered its feed with something unreadable', async () => {
    fakes.setFailure('/product-hunt', { status: 200, body: '<html>maintenance</html>' });
    const error = await sourceFailure(keyless());
    expect(error).toMatchObject({ kind: 'invalid_response', statusCode: 502 });
    expect(error.message).toBe('Product Hunt answered its feed with something unreadable');
  });

  itReportsProviderFailures({
    fakes,
    prefix: '/product-hunt',
    provider: 'Product Hunt',
    also: { notFound: true, messages: { upstream: providerDownMessage('Product Hunt', 500) } },
    read: (timeoutMs) => keyless({}, { timeoutMs }),
  });

  itSaysProviderDown({
    fakes,
    prefix: '/product-hunt',
    provider: 'Product Hunt',
    body: '<!doctype html><title>Product Hunt is down</title>',
    read: () => keyless(),
  });

  it("does not call a feed refused with 403 the server's token (the feed is read with none)", async () => {
    const error = await withProviderFailure(fakes, '/product-hunt', { status: 403, body: 'Forbidden' }, () =>
      sourceFailure(keyless()),
    );
    expect(error.message).toBe('Product Hunt answered 403: access refused');
  });
});
