import { describe, expect, it } from 'vitest';
import { opmlFeedSources } from './ImportOpml';

describe('feeds of an OPML file become RSS blocks', () => {
  it('with the kind’s defaults and the feed’s title as the block’s name; a feed the RSS rule refuses is left out', () => {
    const sources = opmlFeedSources([
      { title: 'Hacker News', xmlUrl: 'https://news.ycombinator.com/rss', htmlUrl: '' },
      { title: 'Script', xmlUrl: 'javascript:alert(1)', htmlUrl: '' },
    ]);
    expect(sources).toEqual([
      expect.objectContaining({
        type: 'RSS',
        feedLink: 'https://news.ycombinator.com/rss',
        sourceName: 'Hacker News',
        numberOfPosts: 6,
        postBody: 'paragraph',
      }),
    ]);
  });
});
