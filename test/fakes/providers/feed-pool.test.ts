import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '#server/sources/rss/feed-parser';
import { type FakeProviders, startFakeProviders } from '../fake-providers';
import { feedPoolFake } from './feed-pool';
import { feedsFake } from './feeds';

let fakes: FakeProviders;

beforeAll(async () => {
  fakes = await startFakeProviders({
    providers: [feedPoolFake({ latencyMs: { min: 40, max: 60 } }), feedsFake],
  });
});
afterAll(() => fakes.close());

const poolUrl = (n: number) => `${fakes.origin}/feeds/pool/${n}.xml`;

describe('feed pool', () => {
  it('serves an RSS 2.0 feed of 10 to 20 items that the production parser reads', async () => {
    const response = await fetch(poolUrl(7));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const feed = parseFeed(await response.text(), { url: poolUrl(7) });
    expect(feed.title).toMatch(/#7$/);
    expect(feed.items.length).toBeGreaterThanOrEqual(10);
    expect(feed.items.length).toBeLessThanOrEqual(20);
    for (const item of feed.items) {
      expect(item.title).not.toBe('');
      expect(item.link).toMatch(/^https:\/\/blog7\.example\.com\/posts\//);
      expect(item.pubDate).not.toBe('');
      expect(item.summary).toContain('<p>');
    }
  });

  it('answers the same feed for the same number and different feeds for different numbers', async () => {
    const [first, again, other] = await Promise.all(
      [poolUrl(3), poolUrl(3), poolUrl(4)].map((url) => fetch(url)),
    );
    const [firstText, againText, otherText] = await Promise.all([first, again, other].map((r) => r?.text()));
    expect(againText).toBe(firstText);
    expect(otherText).not.toBe(firstText);
    expect(again?.headers.get('etag')).toBe(first?.headers.get('etag'));
    expect(other?.headers.get('etag')).not.toBe(first?.headers.get('etag'));
  });

  it('is cacheable like a real feed: max-age=300, Last-Modified, and 304 for a matching ETag', async () => {
    const response = await fetch(poolUrl(11));
    expect(response.headers.get('cache-control')).toBe('max-age=300');
    expect(Date.parse(response.headers.get('last-modified') ?? '')).not.toBeNaN();
    const etag = response.headers.get('etag') ?? '';
    const revalidated = await fetch(poolUrl(11), { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('waits within the configured latency before answering', async () => {
    const started = performance.now();
    await (await fetch(poolUrl(1))).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  });

  it('answers 404 outside the pool and leaves the other feeds to the feeds fake', async () => {
    expect((await fetch(`${fakes.origin}/feeds/pool/abc.xml`)).status).toBe(404);
    expect((await fetch(`${fakes.origin}/feeds/pool/123456.xml`)).status).toBe(404);
    expect((await fetch(`${fakes.origin}/feeds/rss2.xml`)).status).toBe(200);
  });

  it('counts requests per pool feed', async () => {
    fakes.resetHits();
    await Promise.all([poolUrl(20), poolUrl(20), poolUrl(21)].map(async (url) => (await fetch(url)).text()));
    expect(fakes.hits('/feeds/pool', '/20.xml')).toBe(2);
    expect(fakes.hits('/feeds/pool', '/21.xml')).toBe(1);
    expect(fakes.hits('/feeds/pool')).toBe(3);
  });
});
