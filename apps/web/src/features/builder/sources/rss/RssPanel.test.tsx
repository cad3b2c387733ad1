import { type RssSource, SOURCE_SCHEMAS } from '@digest/contracts';
import type { SearchResult } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { rssKeys } from '#web/features/builder/api/rss-api';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { feedAddress, feedSettings, imagesForcedHidden, pastedFeedResult, shownAddress } from './feeds';
import { FeedResults, PastedFeed, RssPanel } from './RssPanel';

const verge: SearchResult = {
  title: 'The Verge',
  description: 'Technology news',
  platformId: 'https://www.theverge.com/rss/index.xml',
  customProps: { favicon: 'https://www.theverge.com/favicon.ico' },
};

const saved: RssSource = {
  type: 'RSS',
  name: '',
  showHeading: true,
  feedLink: verge.platformId,
  sourceName: 'The Verge',
  favicon: verge.customProps.favicon,
  numberOfPosts: 12,
  images: 'show',
  postBody: 'full',
  layout: 1,
  onlyNew: true,
};

const edit = (initial: RssSource) => renderWithData(<RssPanel {...panelProps('RSS', 'edit', { initial })} />);
/** The opening tag of the select named `name`. */
const selectTag = (html: string, name: string) =>
  html.match(new RegExp(`<select[^>]*name="${name}"[^>]*>`))?.[0];

describe('RSS feeds', () => {
  it('a picked feed gives its address, title and icon', () => {
    expect(feedSettings(verge)).toEqual({
      feedLink: 'https://www.theverge.com/rss/index.xml',
      sourceName: 'The Verge',
      favicon: 'https://www.theverge.com/favicon.ico',
    });
    expect(feedSettings({ ...verge, customProps: { favicon: '' } }).favicon).toBeNull();
  });

  it('a pasted http(s) address is looked up as a feed; words and other schemes are searched', () => {
    expect(feedAddress(' https://blog.example.org/ ')).toBe('https://blog.example.org/');
    expect(feedAddress('http://example.org/feed.xml')).toBe('http://example.org/feed.xml');
    expect(feedAddress('technology')).toBeNull();
    expect(feedAddress('ftp://example.org/feed')).toBeNull();
  });

  it('a pasted feed address that answers is offered under the feed’s own title, and saved as it is', () => {
    const result = pastedFeedResult('https://blog.example.org/feed.xml', {
      title: 'Example blog',
      link: 'https://blog.example.org/',
      favicon: 'https://blog.example.org/favicon.ico',
      url: 'https://blog.example.org/feed.xml',
    });
    expect(feedSettings(result)).toEqual({
      feedLink: 'https://blog.example.org/feed.xml',
      sourceName: 'Example blog',
      favicon: 'https://blog.example.org/favicon.ico',
    });
    expect(feedSettings(result)).not.toHaveProperty('pageUrl', expect.anything());
  });

  it('a pasted page is saved as the feed it announces, with the page kept to show (never read again)', () => {
    const result = pastedFeedResult('https://blog.example.org/', {
      title: 'Example blog',
      link: 'https://blog.example.org/',
      favicon: '',
      url: 'https://blog.example.org/atom.xml',
    });
    expect(result.description).toBe('https://blog.example.org/');
    const settings = feedSettings(result);
    expect(settings).toEqual({
      feedLink: 'https://blog.example.org/atom.xml',
      pageUrl: 'https://blog.example.org/',
      sourceName: 'Example blog',
      favicon: null,
    });
    expect(SOURCE_SCHEMAS.RSS.parse({ type: 'RSS', ...settings })).toMatchObject({
      feedLink: 'https://blog.example.org/atom.xml',
      pageUrl: 'https://blog.example.org/',
    });
    // A listed feed picked afterwards drops the page.
    expect(feedSettings(verge).pageUrl).toBeUndefined();
    expect(shownAddress(settings)).toBe('https://blog.example.org/');
    expect(shownAddress(feedSettings(verge))).toBe(verge.platformId);
  });

  it('post content Hide forces images Hide, in the form as in the saved source (docs/product.md §5)', () => {
    const values = { ...saved, postBody: 'hide' as const, images: 'show' as const };
    expect(imagesForcedHidden(values)).toBe(true);
    expect(SOURCE_SCHEMAS.RSS.parse(values).images).toBe('hide');
    expect(imagesForcedHidden({ ...values, postBody: 'paragraph' })).toBe(false);
    expect(SOURCE_SCHEMAS.RSS.parse({ ...values, postBody: 'paragraph' }).images).toBe('show');
  });
});

describe('RSS panel (docs/product.md §4: selected → searching → edit)', () => {
  it("selected: the search box and the 'Popular' feeds", () => {
    const html = renderWithData(<RssPanel {...panelProps('RSS', 'selected')} />, [
      [rssKeys.list(''), [verge]],
    ]);
    expect(html).toContain('placeholder="Search feeds or paste a link"');
    expect(html).toContain('>Popular</h3>');
    expect(html).toContain('The Verge');
  });

  it('selected: 12 placeholders while the popular feeds load', () => {
    const html = renderWithData(<RssPanel {...panelProps('RSS', 'selected')} />);
    expect(html.match(/<li/g)).toHaveLength(12);
  });

  it("searching: 'Results' for a phrase, 'No results...' when none match", () => {
    const found = renderWithData(<FeedResults query="verge" onPick={() => {}} />, [
      [rssKeys.list('verge'), [verge]],
    ]);
    expect(found).toContain('>Results</h3>');
    expect(found).toContain('The Verge');
    const none = renderWithData(<FeedResults query="zzz" onPick={() => {}} />, [[rssKeys.list('zzz'), []]]);
    expect(none).toContain('No results...');
  });

  it('searching: a pasted address shows the feed found there', () => {
    const url = 'https://blog.example.org/';
    const html = renderWithData(<PastedFeed url={url} onPick={() => {}} />, [
      [rssKeys.feed(url), { title: 'Example blog', link: url, favicon: '', url: `${url}feed.xml` }],
    ]);
    expect(html).toContain('>Results</h3>');
    expect(html).toContain('Example blog');
  });

  it('edit: a saved block opens with its feed and every setting; the name defaults to the feed title', () => {
    const html = edit(saved);
    expect(html).toContain('The Verge');
    expect(buttonTag(html, 'Change')).toContain('aria-label="Change feed"');
    expect(html).toContain('placeholder="The Verge"');
    expect(html).toMatch(/name="numberOfPosts"[^>]*value="12"/);
    expect(html).toContain('<option value="full" selected="">Full</option>');
    expect(html).toContain('<option value="1" selected="">1 Column</option>');
    expect(selectTag(html, 'images')).not.toContain('disabled');
  });

  it('edit: a feed found through a page shows the page as its address', () => {
    const html = edit({
      ...saved,
      feedLink: 'https://blog.example.org/atom.xml',
      pageUrl: 'https://blog.example.org/',
    });
    expect(html).toContain('https://blog.example.org/<');
    expect(html).not.toContain('atom.xml');
  });

  it('edit: post content Hide locks the images choice at Hide and says why', () => {
    const html = edit({ ...saved, postBody: 'hide', images: 'show' });
    expect(selectTag(html, 'images')).toContain('disabled');
    expect(html).toMatch(
      /name="images"[^>]*>(?:(?!<\/select>).)*<option value="hide" selected="">Hide<\/option>/,
    );
    expect(html).toContain('Images are hidden while post content is hidden.');
  });

  it('edit: 51 posts shows the schema message and disables Save', () => {
    const html = edit({ ...saved, numberOfPosts: 51 });
    expect(html).toContain('Number of posts must be at most 50');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });
});
