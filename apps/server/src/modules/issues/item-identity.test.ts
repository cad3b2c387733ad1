import { describe, expect, it } from 'vitest';
import { itemIdentity, normaliseLink } from './item-identity';

describe('an item is known by its guid, else its normalised link, else a hash of title and date', () => {
  it('takes the guid first, whatever the link and title say', () => {
    expect(itemIdentity({ guid: ' tag:site,2026:1 ', link: 'https://a.example/1', title: 'One' })).toBe(
      'guid:tag:site,2026:1',
    );
  });

  it('takes the normalised link when there is no guid (or a blank one)', () => {
    expect(itemIdentity({ guid: '  ', link: 'https://A.Example/post/?utm_source=rss#top', title: 'x' })).toBe(
      'link:a.example/post',
    );
  });

  it('hashes title and date when there is neither, the same for the same item, another for another date', () => {
    const first = itemIdentity({ title: 'Weekly notes', date: '2026-11-20T08:00:00Z' });
    expect(first).toMatch(/^hash:[0-9a-f]{64}$/);
    expect(itemIdentity({ title: ' Weekly notes ', date: '2026-11-20T08:00:00Z' })).toBe(first);
    expect(itemIdentity({ title: 'Weekly notes', date: '2026-11-27T08:00:00Z' })).not.toBe(first);
  });

  it('has no identity for an item without guid, link, title or date', () => {
    expect(itemIdentity({})).toBeUndefined();
    expect(itemIdentity({ guid: '', link: ' ', title: '', date: '' })).toBeUndefined();
  });
});

describe('two links to one story normalise to the same form', () => {
  it.each([
    ['HTTPS://Blog.Example.org/Post', 'blog.example.org/Post'],
    ['http://blog.example.org/Post', 'blog.example.org/Post'],
    ['https://www.blog.example.org/Post', 'blog.example.org/Post'],
    ['https://blog.example.org/Post/', 'blog.example.org/Post'],
    ['https://blog.example.org/Post#comments', 'blog.example.org/Post'],
    ['https://blog.example.org/Post?utm_source=hn&utm_medium=x&fbclid=1&gclid=2', 'blog.example.org/Post'],
    ['https://blog.example.org/item?b=2&id=7&mc_cid=3', 'blog.example.org/item?b=2&id=7'],
    ['https://blog.example.org/item?id=7&b=2', 'blog.example.org/item?b=2&id=7'],
    ['https://blog.example.org/', 'blog.example.org'],
    ['https://blog.example.org:8443/a', 'blog.example.org:8443/a'],
  ])('%s → %s', (link, normalised) => {
    expect(normaliseLink(link)).toBe(normalised);
  });

  it('keeps the path’s case and the parameters that choose the page', () => {
    expect(normaliseLink('https://news.example/item?id=1')).not.toBe(
      normaliseLink('https://news.example/item?id=2'),
    );
    expect(normaliseLink('https://x.example/A')).not.toBe(normaliseLink('https://x.example/a'));
  });

  it('leaves what is not an http(s) URL as written, trimmed', () => {
    expect(normaliseLink('  not a url ')).toBe('not a url');
    expect(normaliseLink('mailto:someone@example.org')).toBe('mailto:someone@example.org');
  });
});
