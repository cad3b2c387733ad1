import {
  type HackerNewsItem,
  NOTHING_NEW_MESSAGE,
  type RedditPost,
  type RssItem,
  SOURCE_SCHEMAS,
} from '@digest/contracts';
import { type DigestBlockInput, renderDigestEmail } from '@digest/email';
import { describe, expect, it } from 'vitest';
import { carriedKeysOf, newItemsIssue, rememberedKeysOf } from './new-items';

const STORY = 'https://blog.example.org/postgres-18';

const hnItem = (n: number, url: string): HackerNewsItem => ({
  title: `HN story ${n}`,
  url,
  storyUrl: `https://news.ycombinator.com/item?id=${n}`,
  createdAt: '2026-11-20T06:00:00Z',
  numberOfComments: 10,
  score: 100,
});
const rssItem = (n: number, link: string): RssItem => ({
  title: `Feed post ${n}`,
  content: '',
  creator: '',
  link,
  pubDate: '2026-11-20T05:00:00Z',
  image: '',
  guid: `post-${n}`,
});
const redditPost = (id: string, link?: string): RedditPost => ({
  id,
  url: `https://www.reddit.com/r/programming/comments/${id}/`,
  ...(link ? { link } : {}),
  ups: 5,
  numComments: 2,
  title: `Reddit post ${id}`,
  selfText: '',
  image: '',
});

const hnBlock = (items: HackerNewsItem[]): DigestBlockInput => ({
  source: SOURCE_SCHEMAS.HACKER_NEWS.parse({ type: 'HACKER_NEWS' }),
  content: { items },
});
const rssBlock = (items: RssItem[], onlyNew = true): DigestBlockInput => ({
  source: SOURCE_SCHEMAS.RSS.parse({ type: 'RSS', feedLink: 'https://blog.example.org/feed.xml', onlyNew }),
  content: {
    feed: {
      title: 'Example blog',
      link: 'https://blog.example.org/',
      url: 'https://blog.example.org/feed.xml',
      favicon: '',
    },
    items,
  },
});
const redditBlock = (posts: RedditPost[]): DigestBlockInput => ({
  source: SOURCE_SCHEMAS.REDDIT.parse({ type: 'REDDIT', sourceName: 'programming' }),
  content: { subreddit: 'programming', posts },
});
const dateBlock = (): DigestBlockInput => ({
  source: SOURCE_SCHEMAS.DATE.parse({ type: 'DATE' }),
  content: { date: '2026-11-20', formatted: 'Friday, November 20, 2026', weekday: 'Friday', timezone: 'UTC' },
});

const pair = (key: { sourceKey: string; identity: string }) => `${key.sourceKey} ${key.identity}`;
const sentOf = (blocks: DigestBlockInput[]) => new Set(rememberedKeysOf(blocks).map(pair));

describe('the same story through several sources of a digest is shown once', () => {
  const blocks = () => [
    hnBlock([hnItem(1, `${STORY}?utm_source=hn`), hnItem(2, 'https://other.example/a')]),
    rssBlock([rssItem(1, `${STORY}/`), rssItem(2, 'https://blog.example.org/another')]),
    redditBlock([redditPost('abc', 'http://www.blog.example.org/postgres-18#intro'), redditPost('def')]),
  ];

  it('keeps it in the first source, with the other sources’ discussion links beside it, and drops the copies', () => {
    const issue = newItemsIssue(blocks(), new Set());
    const [hn, rss, reddit] = issue.blocks as [DigestBlockInput, DigestBlockInput, DigestBlockInput];
    const hnItems = (hn.content as { items: HackerNewsItem[] }).items;
    expect(hnItems.map((item) => item.title)).toEqual(['HN story 1', 'HN story 2']);
    // An RSS copy has no discussion of its own: it is only left out.
    expect(hnItems[0]?.discussions).toEqual([
      { label: 'r/programming', url: 'https://www.reddit.com/r/programming/comments/abc/' },
    ]);
    expect(hnItems[1]?.discussions).toBeUndefined();
    expect((rss.content as { items: RssItem[] }).items.map((item) => item.title)).toEqual(['Feed post 2']);
    expect((reddit.content as { posts: RedditPost[] }).posts.map((post) => post.id)).toEqual(['def']);
    expect(issue.newItems).toBe(6);
  });

  it('records the copies as carried with the story, for their own sources', () => {
    const issue = newItemsIssue(blocks(), new Set());
    const recorded = carriedKeysOf(issue.blocks, issue);
    expect(recorded).toHaveLength(6);
    expect(new Set(recorded.map(pair))).toEqual(sentOf(blocks()));
  });

  it('does not record the copies when the story itself was cut from the mail', () => {
    const issue = newItemsIssue(blocks(), new Set());
    const cut = issue.blocks.map((block, index) =>
      index === 0 ? ({ ...block, content: { items: [] } } as DigestBlockInput) : block,
    );
    expect(carriedKeysOf(cut, issue)).toHaveLength(2);
  });

  it('draws the discussion links in the mail, HTML and text', async () => {
    const issue = newItemsIssue(
      [hnBlock([hnItem(1, STORY)]), redditBlock([redditPost('abc', STORY)]), dateBlock()],
      new Set(),
    );
    const rendered = await renderDigestEmail({
      digestName: 'Morning',
      issueNumber: 1,
      date: new Date('2026-11-20T07:00:00Z'),
      timeZone: 'UTC',
      locale: 'en-US',
      blocks: issue.blocks,
    });
    expect(rendered.html).toContain('href="https://www.reddit.com/r/programming/comments/abc/"');
    expect(rendered.html).toMatch(/Also: <span><a [^>]*>r\/programming<\/a>/);
    expect(rendered.text).toContain('r/programming');
  });
});

describe('only new items', () => {
  it('leaves out what this source carried before; a source left empty says so; one with "Only new items" off repeats', () => {
    const first = [
      hnBlock([hnItem(1, 'https://a.example/1')]),
      rssBlock([rssItem(1, 'https://b.example/1')], false),
    ];
    const issue = newItemsIssue(first, sentOf(first));
    expect(issue.blocks[0]).toMatchObject({ nothingNew: true, content: { items: [] } });
    expect(issue.blocks[1]).toEqual(first[1]);
    expect(issue).toMatchObject({ newItems: 0, hasLists: true, emptiedByOnlyNew: true });
    expect(carriedKeysOf(issue.blocks, issue)).toEqual([]);
  });

  it('keeps the new items of a source, counts them, and records only those', () => {
    const before = [hnBlock([hnItem(1, 'https://a.example/1')])];
    const now = [hnBlock([hnItem(3, 'https://a.example/3'), hnItem(1, 'https://a.example/1')])];
    const issue = newItemsIssue(now, sentOf(before));
    const kept = issue.blocks[0]?.content as { items: HackerNewsItem[] };
    expect(kept.items.map((item) => item.title)).toEqual(['HN story 3']);
    expect(issue.blocks[0]?.nothingNew).toBeUndefined();
    expect(issue.newItems).toBe(1);
    expect(carriedKeysOf(issue.blocks, issue)).toHaveLength(1);
  });

  it('leaves figures and failed sources as they are, and an issue of figures has no lists', () => {
    const failed = {
      source: SOURCE_SCHEMAS.RSS.parse({ type: 'RSS', feedLink: 'https://x.example/f' }),
      error: 'gone',
    };
    const issue = newItemsIssue([dateBlock(), failed as DigestBlockInput], new Set());
    expect(issue.blocks).toEqual([dateBlock(), failed]);
    expect(issue.hasLists).toBe(false);
  });

  it(`renders a block with nothing new as its heading and "${NOTHING_NEW_MESSAGE}"`, async () => {
    const first = [hnBlock([hnItem(1, 'https://a.example/1')])];
    const issue = newItemsIssue(first, sentOf(first));
    const rendered = await renderDigestEmail({
      digestName: 'Morning',
      issueNumber: 2,
      date: new Date('2026-11-20T07:00:00Z'),
      timeZone: 'UTC',
      locale: 'en-US',
      blocks: issue.blocks,
    });
    expect(rendered.html).toContain(NOTHING_NEW_MESSAGE);
    expect(rendered.html).not.toContain('No stories');
    expect(rendered.text).toMatch(/Hacker News[\s\S]*Nothing new since the last issue\./);
  });
});
