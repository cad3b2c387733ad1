import { type RedditSource, SOURCE_SCHEMAS } from '@digest/contracts';
import type { Subreddit } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { redditKeys } from '#web/features/builder/api/reddit-api';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { REDDIT_FEED_NOTE, RedditPanel, SubredditResults } from './RedditPanel';
import { subredditSettings } from './subreddits';

const programming: Subreddit = {
  name: 'programming',
  description: 'Computer programming',
  subscribers: 6_512_345,
  url: 'https://www.reddit.com/r/programming/',
  icon: 'https://styles.redditmedia.com/programming.png',
};

const saved: RedditSource = {
  type: 'REDDIT',
  name: '',
  showHeading: true,
  sourceName: 'programming',
  numberOfPosts: 3,
  images: 'hide',
  postBody: 'full',
  layout: 1,
  onlyNew: true,
};

describe('a picked subreddit', () => {
  it('gives its name without r/, valid for the Reddit settings, with the docs/product.md §9 defaults', () => {
    expect(subredditSettings(programming)).toEqual({ sourceName: 'programming' });
    expect(SOURCE_SCHEMAS.REDDIT.parse({ type: 'REDDIT', ...subredditSettings(programming) })).toMatchObject({
      sourceName: 'programming',
      numberOfPosts: 6,
      images: 'show',
      postBody: 'paragraph',
      layout: 2,
    });
  });
});

describe('Reddit panel (docs/product.md §4: selected → searching → edit)', () => {
  it("selected: the search box and the 'Popular' subreddits with their subscribers as K/M", () => {
    const html = renderWithData(<RedditPanel {...panelProps('REDDIT', 'selected')} />, [
      [redditKeys.subreddits(''), { subreddits: [programming], access: 'api' }],
    ]);
    expect(html).toContain('placeholder="Search subreddits"');
    expect(html).toContain('>Popular</h3>');
    expect(html).toContain('r/programming');
    expect(html).toContain('6.5M subscribers');
  });

  it("searching: 'Results' for a phrase, 'No results...' when none match", () => {
    const found = renderWithData(<SubredditResults query="prog" onPick={() => {}} />, [
      [redditKeys.subreddits('prog'), { subreddits: [programming], access: 'api' }],
    ]);
    expect(found).toContain('>Results</h3>');
    expect(found).toContain('r/programming');
    const none = renderWithData(<SubredditResults query="zzz" onPick={() => {}} />, [
      [redditKeys.subreddits('zzz'), { subreddits: [], access: 'api' }],
    ]);
    expect(none).toContain('No results...');
  });

  it('edit: a saved block opens with its subreddit and every setting', () => {
    const html = renderWithData(<RedditPanel {...panelProps('REDDIT', 'edit', { initial: saved })} />);
    expect(html).toContain('r/programming');
    expect(buttonTag(html, 'Change')).toContain('aria-label="Change subreddit"');
    expect(html).toContain('placeholder="r/programming"');
    expect(html).toMatch(/name="numberOfPosts"[^>]*value="3"/);
    expect(html).toContain('<option value="hide" selected="">Hide</option>');
    expect(html).toContain('<option value="full" selected="">Full</option>');
    expect(html).toContain('<option value="1" selected="">1 Column</option>');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });

  it('edit: 11 posts shows the schema message and disables Save', () => {
    const html = renderWithData(
      <RedditPanel {...panelProps('REDDIT', 'edit', { initial: { ...saved, numberOfPosts: 11 } })} />,
    );
    expect(html).toContain('Number of posts must be at most 10');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });
});

describe('Reddit panel when Reddit refuses this server its API (the server reads public feeds)', () => {
  const feedOnly = (search: string) =>
    [redditKeys.subreddits(search), { subreddits: [], access: 'feed' }] as [readonly unknown[], unknown];
  /** The note as React writes it into the markup (the apostrophe is not escaped). */
  const note = REDDIT_FEED_NOTE;

  it('selected: says what the feed cannot give, and asks for a name instead of an empty Popular list', () => {
    const html = renderWithData(<RedditPanel {...panelProps('REDDIT', 'selected')} />, [feedOnly('')]);
    expect(html).toContain(`${note} Type the name of the subreddit to add.`);
    expect(html).toContain('without upvotes or comment counts');
    expect(html).not.toContain('No results...');
    expect(html).toContain('Search results will display here');
  });

  it('searching: offers the subreddit named, read from its feed; nothing for a name Reddit would refuse', () => {
    const named = renderWithData(<SubredditResults query="golang" onPick={() => {}} />, [feedOnly('golang')]);
    expect(named).toContain('r/golang');
    expect(named).toContain('Read from its public feed');
    const bad = renderWithData(<SubredditResults query="not a name" onPick={() => {}} />, [
      feedOnly('not a name'),
    ]);
    expect(bad).toContain('No results...');
  });

  it('edit: keeps the note above the settings; with the API there is none', () => {
    const viaFeed = renderWithData(<RedditPanel {...panelProps('REDDIT', 'edit', { initial: saved })} />, [
      feedOnly(''),
    ]);
    expect(viaFeed).toContain(note);
    const viaApi = renderWithData(<RedditPanel {...panelProps('REDDIT', 'edit', { initial: saved })} />, [
      [redditKeys.subreddits(''), { subreddits: [programming], access: 'api' }],
    ]);
    expect(viaApi).not.toContain('public feed');
  });
});
