import { type RedditSource, SOURCE_SCHEMAS } from '@digest/contracts';
import type { Subreddit } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { redditKeys } from '#web/features/builder/api/reddit-api';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { RedditPanel, SubredditResults } from './RedditPanel';
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
      [redditKeys.subreddits(''), [programming]],
    ]);
    expect(html).toContain('placeholder="Search subreddits"');
    expect(html).toContain('>Popular</h3>');
    expect(html).toContain('r/programming');
    expect(html).toContain('6.5M subscribers');
  });

  it("searching: 'Results' for a phrase, 'No results...' when none match", () => {
    const found = renderWithData(<SubredditResults query="prog" onPick={() => {}} />, [
      [redditKeys.subreddits('prog'), [programming]],
    ]);
    expect(found).toContain('>Results</h3>');
    expect(found).toContain('r/programming');
    const none = renderWithData(<SubredditResults query="zzz" onPick={() => {}} />, [
      [redditKeys.subreddits('zzz'), []],
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
