import { SOURCE_SCHEMAS, type SourceInputOf, type SourceOf } from '@digest/contracts';
import type { Tweet, TweetUser } from '@digest/contracts/content';
import type { QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { previewKey } from '#web/features/builder/api/preview-api';
import { twitterKeys } from '#web/features/builder/api/twitter-api';
import type { TwitterKind } from '#web/features/builder/lib/steps';
import { renderWithAccounts, testAccount } from '../connect/test-accounts';
import { buttonTag, panelProps } from '../form/render-panel';
import { TwitterPanel } from './TwitterPanel';

type TwitterSource = SourceOf<TwitterKind>;

const account = testAccount('TWITTER', 't1', 'ada_x');
const nasa: TweetUser = {
  twitterUserId: '11348282',
  fullName: 'NASA',
  username: 'NASA',
  image: 'https://pbs.twimg.test/nasa.jpg',
  followersCount: 80_000_000,
};
const tweet: Tweet = {
  id: '1',
  text: 'Liftoff!',
  url: 'https://x.com/NASA/status/1',
  user: nasa,
  media: [],
  likesCount: 1,
  retweetsCount: 1,
  date: '2026-11-21T10:00:00.000Z',
  referencedTweets: [],
  isRetweeted: false,
  isQuoted: false,
  isReplied: false,
};

/** The kind's settings as saved with the connected account (`initial` may be refused by the schema). */
function settings<T extends TwitterKind>(type: T, extra: Partial<SourceInputOf<T>> = {}): TwitterSource {
  return { type, tokenId: account.tokenId, username: 'ada_x', ...extra } as unknown as TwitterSource;
}

function edit(initial: TwitterSource, seed: [QueryKey, unknown][] = []) {
  const props = panelProps<TwitterKind>(initial.type, 'edit', { initial });
  return renderWithAccounts(<TwitterPanel {...props} />, [account], { seed });
}

/** The preview of these settings already loaded with `tweets`. */
function previewed(initial: TwitterSource, tweets: Tweet[]): [QueryKey, unknown] {
  const source = SOURCE_SCHEMAS[initial.type].parse(initial) as TwitterSource;
  return [previewKey(source), { tweets }];
}

describe('Twitter settings (docs/product.md §4, §5, §9)', () => {
  it('tweets: suggestions to add users, and the specified defaults (6 tweets, 3 per user, Popular, 1 Column)', () => {
    const initial = settings('TWITTER_TWEETS');
    const html = edit(initial, [[twitterKeys.users('t1', ''), [nasa]]]);
    expect(html).toContain('Reading with <strong>@ada_x</strong>');
    expect(html).toContain('Popular');
    expect(html).toContain('@NASA');
    expect(html).toContain('Include retweets');
    expect(html).toMatch(/name="limit"[^>]*value="6"/);
    expect(html).toMatch(/name="numberOfTweetsPerUser"[^>]*value="3"/);
    expect(html).toMatch(/<option value="popular" selected="">Popular<\/option>/);
    expect(html).toMatch(/<option value="1" selected="">1 Column<\/option>/);
  });

  it('tweets: chosen users are listed with a Remove button each', () => {
    const initial = settings('TWITTER_TWEETS', {
      twitterUsers: [{ twitterUserId: nasa.twitterUserId, fullName: 'NASA', username: 'NASA' }],
    });
    const html = edit(initial, [[twitterKeys.users('t1', ''), []]]);
    expect(html).toContain('aria-label="Remove @NASA"');
  });

  it('Save is disabled while the preview has no tweets, enabled once it has some', () => {
    const initial = settings('TWITTER_TIMELINE');
    const empty = edit(initial, [previewed(initial, [])]);
    expect(empty).toContain('No tweets to show with these settings yet.');
    expect(buttonTag(empty, 'Save')).toContain('disabled');
    expect(buttonTag(edit(initial, [previewed(initial, [tweet])]), 'Save')).not.toContain('disabled');
  });

  it('timeline has no users to add', () => {
    const html = edit(settings('TWITTER_TIMELINE'));
    expect(html).not.toContain('Search X users');
    expect(html).toContain('Tweets per user');
  });

  it("search: a phrase whose first word has 2 characters is refused with the schema's message", () => {
    const html = edit(settings('TWITTER_SEARCH', { search: 'ab cd' }));
    expect(html).toContain('Search phrase must start with a word of more than 2 characters');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });

  it('search: 21 tweets are refused (0 to 20), and the filters are offered', () => {
    const html = edit(settings('TWITTER_SEARCH', { search: 'rocket launch', limit: 21 }));
    expect(html).toContain('Number of tweets must be at most 20');
    for (const filter of ['Hide retweets', 'Hide replies', 'Links only', 'Images only']) {
      expect(html).toContain(filter);
    }
    expect(html).not.toContain('Tweets per user');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });

  it('search: 5 latest tweets by default', () => {
    const html = edit(settings('TWITTER_SEARCH', { search: 'rocket' }));
    expect(html).toMatch(/name="limit"[^>]*value="5"/);
    expect(html).toMatch(/<option value="latest" selected="">Latest<\/option>/);
    expect(html).not.toContain('Search phrase must');
  });

  it("list: the account's lists to choose from, 8 tweets and 4 per user", () => {
    const html = edit(settings('TWITTER_LIST'), [
      [twitterKeys.lists('t1'), [{ listId: '42', listName: 'Space agencies' }]],
    ]);
    expect(html).toContain('<option value="42">Space agencies</option>');
    expect(html).toMatch(/name="limit"[^>]*value="8"/);
    expect(html).toMatch(/name="numberOfTweetsPerUser"[^>]*value="4"/);
  });

  it('connect: the connected X accounts to pick from', () => {
    const props = panelProps<TwitterKind>('TWITTER_SEARCH', 'connect');
    const html = renderWithAccounts(<TwitterPanel {...props} />, [account]);
    expect(html).toContain('Use this account');
    expect(html).not.toContain('Search phrase');
  });
});
