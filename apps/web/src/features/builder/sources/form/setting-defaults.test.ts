import { describe, expect, it } from 'vitest';
import { settingDefaults } from './setting-defaults';

describe('a new source starts with the docs/product.md §9 defaults of its schema', () => {
  it('Twitter tweets: 6 tweets, 3 per user, popular, 1 column; the name is left to its placeholder', () => {
    expect(settingDefaults('TWITTER_TWEETS')).toMatchObject({
      limit: 6,
      numberOfTweetsPerUser: 3,
      tweetType: 'popular',
      layout: 1,
    });
    expect(settingDefaults('TWITTER_TWEETS')).not.toHaveProperty('name');
  });

  it('calendar: next 7 days, 12 hours; search: 5 latest; list: 8 and 4 latest', () => {
    expect(settingDefaults('GOOGLE_CALENDAR')).toMatchObject({ eventType: 'week', eventTime: '12h' });
    expect(settingDefaults('TWITTER_SEARCH')).toMatchObject({ limit: 5, tweetType: 'latest' });
    expect(settingDefaults('TWITTER_LIST')).toMatchObject({
      limit: 8,
      numberOfTweetsPerUser: 4,
      tweetType: 'latest',
    });
  });

  it('required settings have no default', () => {
    expect(settingDefaults('TWITTER_SEARCH')).not.toHaveProperty('search');
    expect(settingDefaults('TWITTER_LIST')).not.toHaveProperty('listId');
  });
});
