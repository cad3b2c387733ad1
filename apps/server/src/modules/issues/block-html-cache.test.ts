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
    const render = () => ({ html: `<div>${++renders}</div>`, text: `${renders}` });
    expect(cache.rendered(block(), utc, render)).toEqual({ html: '<div>1</div>', text: '1' });
    expect(cache.rendered(block(), utc, render)).toEqual({ html: '<div>1</div>', text: '1' });
    cache.rendered(block({ source: { ...source, numberOfPosts: 6 } }), utc, render);
    cache.rendered(block({ content: { ...content, items: [{ title: 'New' }] } }), utc, render);
    cache.rendered(block(), { ...utc, locale: 'fr-FR' }, render);
    cache.rendered(block(), { ...utc, timeZone: 'Europe/Paris' }, render);
    cache.rendered(block({ cut: true }), utc, render);
    cache.rendered(block({ error: 'The feed answered 500' }), utc, render);
    expect(renders).toBe(7);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 7, entries: 7 });
  });

  it('holds at most maxBytes of HTML and text, dropping the least recently used block first', () => {
    const cache = createBlockHtmlCache({ maxBytes: 30 });
    const html = (text: string) => () => ({ html: text.padEnd(10, '.'), text: `${text}....` });
    cache.rendered(block({ error: 'a' }), utc, html('a'));
    cache.rendered(block({ error: 'b' }), utc, html('b'));
    cache.rendered(block({ error: 'a' }), utc, html('A'));
    cache.rendered(block({ error: 'c' }), utc, html('c'));
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 30 });
    expect(cache.rendered(block({ error: 'a' }), utc, html('A')).html).toBe('a.........');
    expect(cache.rendered(block({ error: 'b' }), utc, html('B')).html).toBe('B.........');
  });
});
