import { describe, expect, it } from 'vitest';
import { createBlockHtmlCache } from './block-html-cache';

const source = { type: 'RSS', feedLink: 'https://blog.example.org/feed.xml', numberOfPosts: 5 };
const content = { feed: { title: 'Blog', link: 'https://blog.example.org/', favicon: '' }, items: [] };
const block = (overrides: object = {}) => ({ source, content, ...overrides }) as never;
const utc = { locale: 'en-US', timeZone: 'UTC' };

describe('the rendered-block cache', () => {
  it('renders an identical block once, and again for other settings, content, locale, zone or cut', () => {
    const cache = createBlockHtmlCache();
    let renders = 0;
    const render = () => `<div>${++renders}</div>`;
    expect(cache.html(block(), utc, render)).toBe('<div>1</div>');
    expect(cache.html(block(), utc, render)).toBe('<div>1</div>');
    cache.html(block({ source: { ...source, numberOfPosts: 6 } }), utc, render);
    cache.html(block({ content: { ...content, items: [{ title: 'New' }] } }), utc, render);
    cache.html(block(), { ...utc, locale: 'fr-FR' }, render);
    cache.html(block(), { ...utc, timeZone: 'Europe/Paris' }, render);
    cache.html(block({ cut: true }), utc, render);
    cache.html(block({ error: 'The feed answered 500' }), utc, render);
    expect(renders).toBe(7);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 7, entries: 7 });
  });

  it('holds at most maxBytes of HTML, dropping the least recently used block first', () => {
    const cache = createBlockHtmlCache({ maxBytes: 25 });
    const html = (text: string) => () => text.padEnd(10, '.');
    cache.html(block({ error: 'a' }), utc, html('a'));
    cache.html(block({ error: 'b' }), utc, html('b'));
    cache.html(block({ error: 'a' }), utc, html('A'));
    cache.html(block({ error: 'c' }), utc, html('c'));
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 20 });
    expect(cache.html(block({ error: 'a' }), utc, html('A'))).toBe('a.........');
    expect(cache.html(block({ error: 'b' }), utc, html('B'))).toBe('B.........');
  });
});
