import { rssSourceSchema } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeProvidersForFile,
  itReportsProviderFailures,
  sourceFailure,
} from '#server/sources/sources.test-support';
import { feedsFake } from '#test/fakes/providers/feeds';
import { type FeedRequest, feedFetchUrl, fetchFeed, rssConnector } from './rss.connector';

const fakes = fakeProvidersForFile([feedsFake], '/feeds');

/** Fresh deps each time: no answer cached by an earlier test. */
const deps = (timeoutMs?: number) => connectorDeps(fakes, { timeoutMs });

const feedUrl = (name: string) => `${fakes.origin}/feeds/${name}`;

function read(name: string, options: Partial<Omit<FeedRequest, 'url'>> = {}, timeoutMs?: number) {
  return fetchFeed(deps(timeoutMs), {
    url: feedUrl(name),
    limit: 6,
    image: 'show',
    body: 'full',
    ...options,
  });
}

describe('reading each feed format', () => {
  it('reads RSS 2.0: feed title, site link, its image as favicon, items with creator, ISO date and image', async () => {
    const content = await read('rss2.xml');
    expect(content.feed).toEqual({
      title: 'Field Notes & Dispatches',
      link: 'https://fieldnotes.example.com/',
      favicon: 'https://fieldnotes.example.com/images/logo-144.png',
      url: feedUrl('rss2.xml'),
    });
    expect(content.items[0]).toMatchObject({
      title: 'The night shift that keeps the trams running',
      link: 'https://fieldnotes.example.com/2026/11/night-shift-trams',
      creator: 'Maya Okafor',
      pubDate: '2026-11-21T06:00:00.000Z',
      image: 'https://fieldnotes.example.com/images/2026/night-shift-thumb.jpg',
    });
    // An image enclosure; a "+0100" date; an "address (Name)" author; an "EST" date.
    expect(content.items[1]?.image).toBe('https://fieldnotes.example.com/images/2026/river.png');
    expect(content.items[1]?.pubDate).toBe('2026-11-20T16:45:00.000Z');
    expect(content.items[2]?.creator).toBe('The Editors');
    expect(content.items[3]?.pubDate).toBe('2026-11-18T17:30:00.000Z');
  });

  it('reads Atom: xml:base resolves links and icon, HTML titles become text, xhtml content is kept', async () => {
    const content = await read('atom.xml');
    expect(content.feed).toEqual({
      title: 'Compile Time',
      link: 'https://blog.example.org/',
      favicon: 'https://blog.example.org/icons/favicon-32.png',
      url: feedUrl('atom.xml'),
    });
    const [first, second, third] = content.items;
    expect(first).toMatchObject({
      title: 'Pattern matching match arms, revisited',
      link: 'https://blog.example.org/2026/11/pattern-matching',
      creator: 'Ines Duarte',
      pubDate: '2026-11-20T17:04:00.000Z',
      image: 'https://blog.example.org/images/arms.png',
    });
    expect(first?.content).toContain('<img src="https://blog.example.org/images/arms.png"');
    expect(first?.content).toContain('href="https://blog.example.org/2026/10/enums"');
    expect(second).toMatchObject({ creator: 'Guest: Rafael Ortiz', pubDate: '2026-11-12T09:30:00.000Z' });
    expect(third?.image).toBe('https://blog.example.org/images/books.jpg');
  });

  it('reads RSS 1.0 (RDF): items beside the channel, dc:creator and dc:date', async () => {
    const content = await read('rdf.xml');
    expect(content.feed.favicon).toBe('https://news.example.net/logo.gif');
    expect(content.items.map((item) => [item.title, item.creator, item.pubDate])).toEqual([
      ['Amateur astronomers spot a new comet', 'sciencedesk', '2026-11-21T05:12:00.000Z'],
      ['Sodium batteries reach a new density record', 'techdesk', '2026-11-21T03:40:00.000Z'],
    ]);
  });

  it('reads JSON Feed 1.1: favicon, item image, plain-text content, the feed author as fallback', async () => {
    const content = await read('json-feed.json');
    expect(content.feed).toEqual({
      title: 'Small Web Weekly',
      link: 'https://smallweb.example.com/',
      favicon: 'https://smallweb.example.com/favicon-64.png',
      url: feedUrl('json-feed.json'),
    });
    expect(content.items[0]).toMatchObject({
      creator: 'Priya Raman',
      image: 'https://smallweb.example.com/issues/112/cover.jpg',
      pubDate: '2026-11-20T10:00:00.000Z',
    });
    expect(content.items[1]).toMatchObject({
      creator: 'Guest editor: Lee Chen',
      content: 'Plain text issue: people who publish their notes as they go.',
    });
  });

  it('decodes a feed in the windows-1252 encoding its XML declares', async () => {
    const content = await read('windows-1252.xml');
    expect(content.feed.title).toBe('Café Crème – Nouvelles');
    expect(content.items[0]?.title).toBe('L’été est fini');
  });

  it('falls back to the site’s /favicon.ico when the feed has no image or icon', async () => {
    const content = await read('xss.xml');
    expect(content.feed.favicon).toBe('https://normal.example.com/favicon.ico');
  });
});

describe('options', () => {
  it('shows 0 to 50 posts: the first `limit` items of the feed', async () => {
    expect((await read('rss2.xml', { limit: 0 })).items).toEqual([]);
    expect((await read('rss2.xml', { limit: 2 })).items.map((item) => item.title)).toEqual([
      'The night shift that keeps the trams running',
      'Why the river is warmer than it used to be',
    ]);
    expect((await read('rss2.xml', { limit: 50 })).items).toHaveLength(7);
  });

  it('body full: the whole post, sanitised, relative links made absolute against the item', async () => {
    const [item] = (await read('rss2.xml', { body: 'full' })).items;
    expect(item?.content).toContain('<img src="https://fieldnotes.example.com/images/2026/night-shift.jpg"');
    expect(item?.content).toContain('href="https://fieldnotes.example.com/2026/10/tram-history"');
    expect(item?.content).toContain('We followed the crew for a week.');
  });

  it('body paragraph: only the first paragraph', async () => {
    const items = (await read('rss2.xml', { body: 'paragraph' })).items;
    expect(items[0]?.content).toBe(
      "<p>Between 1 and 5 a.m., forty engineers rebuild a city's tracks one sleeper at a time.</p>",
    );
    expect(items[1]?.content).toBe(
      '<p>Summer readings broke records again. Hydrologists explain what changed upstream.</p>',
    );
  });

  it('body hide: no content and, by the RSS rule, no images either', async () => {
    const items = (await read('rss2.xml', { body: 'hide', image: 'show' })).items;
    expect(items.map((item) => [item.content, item.image])).toEqual(items.map(() => ['', '']));
    expect(items[0]?.title).toBe('The night shift that keeps the trams running');
  });

  it('images hide: no item image and no <img> left in the content', async () => {
    const items = (await read('rss2.xml', { body: 'full', image: 'hide' })).items;
    expect(items.every((item) => item.image === '')).toBe(true);
    expect(items[0]?.content).not.toContain('<img');
    expect(items[0]?.content).toContain('We followed the crew for a week.');
  });

  it('the connector applies a saved source’s settings (feedLink, numberOfPosts, images, postBody)', async () => {
    const source = rssSourceSchema.parse({
      type: 'RSS',
      feedLink: feedUrl('rss2.xml'),
      numberOfPosts: 3,
      postBody: 'hide',
    });
    const content = await rssConnector(deps()).fetchContent(source, {
      userId: 'user-1',
      timezone: 'UTC',
      locale: 'en-US',
    });
    expect(content.items).toHaveLength(3);
    expect(content.items.every((item) => item.content === '' && item.image === '')).toBe(true);
  });
});

describe('a catch-up issue: the items published in its window', () => {
  const window = { since: new Date('2026-11-17T08:15:00Z'), until: new Date('2026-11-20T16:45:00Z') };

  it('keeps the items published after since and up to until, newest first, still at most the limit', async () => {
    const dates = (await read('rss2.xml', { window })).items.map((item) => item.pubDate);
    expect(dates).toEqual([
      '2026-11-20T16:45:00.000Z',
      '2026-11-19T09:00:00.000Z',
      '2026-11-18T17:30:00.000Z',
    ]);
    expect((await read('rss2.xml', { window, limit: 2 })).items).toHaveLength(2);
  });

  it('the connector reads the window from the issue’s context', async () => {
    const source = rssSourceSchema.parse({ type: 'RSS', feedLink: feedUrl('rss2.xml') });
    const context = { userId: 'user-1', timezone: 'UTC', locale: 'en-US', window };
    const content = await rssConnector(deps()).fetchContent(source, context);
    expect(content.items.map((item) => item.title)).toHaveLength(3);
    const plain = await rssConnector(deps()).fetchContent(source, { ...context, window: undefined });
    expect(plain.items.length).toBeGreaterThan(3);
  });
});

describe('discovery from an HTML page', () => {
  it('reads the first feed a page announces with <link rel="alternate">, resolved against the page', async () => {
    const content = await read('page-with-feed.html');
    expect(content.feed.title).toBe('Field Notes & Dispatches');
    // The feed's own address, which a source saves instead of the page (modules/issues/page-feeds.test.ts).
    expect(content.feed.url).toBe(feedUrl('rss2.xml'));
    expect(fakes.hits('/feeds', '/page-with-feed.html')).toBe(1);
    expect(fakes.hits('/feeds', '/rss2.xml')).toBe(1);
    expect(fakes.hits('/feeds', '/json-feed.json')).toBe(0);
  });

  it('answers not_found "No feed found at this address" for a page without a feed link', async () => {
    const error = await sourceFailure(read('page-without-feed.html'));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('No feed found at this address');
  });

  it('follows one link only: a linked page that is again a page is refused, not followed', async () => {
    const error = await sourceFailure(read('page-linking-page.html'));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/web page, not a feed/);
    expect(fakes.hits('/feeds')).toBe(2);
  });
});

describe('refusals and provider failures', () => {
  itReportsProviderFailures({
    fakes,
    prefix: '/feeds',
    provider: 'The feed',
    read: (timeoutMs) => read('rss2.xml', {}, timeoutMs),
  });

  it('reads a feed with a hostile DOCTYPE (billion laughs, external entity) without expanding anything', async () => {
    const content = await read('billion-laughs.xml');
    expect(content.items.map((item) => item.title)).toEqual(['&lol9;']);
    expect(JSON.stringify(content)).not.toMatch(/lollol|root:/);
  });

  it('sanitises content: no scripts, handlers, javascript: URLs, iframes, forms or styles; unsafe links dropped', async () => {
    const [first, second] = (await read('xss.xml', { body: 'full' })).items;
    for (const html of [first?.content ?? '', second?.content ?? '']) {
      expect(html).not.toMatch(
        /<script|onerror|onclick|onload|javascript:|<iframe|<form|<input|style=|<svg/i,
      );
    }
    expect(first?.content).toContain('href="https://normal.example.com/safe"');
    expect(second?.link).toBe('');
  });

  it('answers not_found for a feed that answers 404', async () => {
    const error = await sourceFailure(read('missing.xml'));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('The feed answered 404: not found');
  });

  it('answers too_large for a feed over the body cap', async () => {
    const error = await sourceFailure(read('huge.xml'));
    expect(error.kind).toBe('too_large');
  });

  it('answers invalid_response for an answer that is not a feed', async () => {
    const error = await sourceFailure(read('not-a-feed.txt'));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/not a feed/);
  });

  it('reads a feed once for many identical requests (shared cache)', async () => {
    const shared = deps();
    const request: FeedRequest = { url: feedUrl('rss2.xml'), limit: 6, image: 'show', body: 'full' };
    await Promise.all(Array.from({ length: 10 }, () => fetchFeed(shared, request)));
    await fetchFeed(shared, { ...request, body: 'hide' });
    expect(fakes.hits('/feeds', '/rss2.xml')).toBe(1);
  });

  it('parses and sanitises a fetched feed once: requests with the same options share its content, others and a new fetch do not', async () => {
    const shared = deps();
    const request: FeedRequest = { url: feedUrl('rss2.xml'), limit: 6, image: 'show', body: 'full' };
    const first = await fetchFeed(shared, request);
    expect(await fetchFeed(shared, { ...request })).toBe(first);
    const hidden = await fetchFeed(shared, { ...request, body: 'hide' });
    expect(hidden).not.toBe(first);
    expect(hidden.items[0]?.content).toBe('');
    expect((await fetchFeed(shared, { ...request, limit: 2 })).items).toHaveLength(2);
    const refetched = await fetchFeed(deps(), request);
    expect(refetched).not.toBe(first);
    expect(refetched).toEqual(first);
  });
});

describe('feedFetchUrl (FEED_MIRROR_URL)', () => {
  it('reads a feed from its own address when no mirror is set', () => {
    expect(feedFetchUrl('https://example.com/feed.xml?x=1', undefined)).toBe(
      'https://example.com/feed.xml?x=1',
    );
  });

  it('reads a feed on another host from the mirror, host and path kept', () => {
    expect(feedFetchUrl('https://example.com/a/feed.xml?x=1', 'http://127.0.0.1:4010/feeds/mirror')).toBe(
      'http://127.0.0.1:4010/feeds/mirror/example.com/a/feed.xml?x=1',
    );
  });

  it('reads a feed on the mirror host itself directly', () => {
    expect(feedFetchUrl('http://127.0.0.1:4010/feeds/rss2.xml', 'http://127.0.0.1:4010/feeds/mirror')).toBe(
      'http://127.0.0.1:4010/feeds/rss2.xml',
    );
  });
});
