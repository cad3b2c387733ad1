import { describe, expect, it } from 'vitest';
import {
  defaultSource,
  SOURCE_POST_LIMITS,
  SOURCE_SCHEMAS,
  SOURCE_TYPES,
  type SourceType,
  sourceKindOf,
  sourceSchema,
  storedSourceSchema,
} from './sources';

const messages = (value: unknown) =>
  sourceSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
const parse = (value: unknown) => sourceSchema.parse(value);

/** The least each kind needs (its required choices). */
const MINIMAL: Record<SourceType, Record<string, unknown>> = {
  WEATHER: { type: 'WEATHER', latitude: 52.23, longitude: 21.01, locationName: 'Warsaw' },
  HACKER_NEWS: { type: 'HACKER_NEWS' },
  DATE: { type: 'DATE' },
  RSS: { type: 'RSS', feedLink: 'https://example.com/feed' },
  NEWSLETTERS: { type: 'NEWSLETTERS' },
  REDDIT: { type: 'REDDIT', sourceName: 'programming' },
  GOOGLE_CALENDAR: { type: 'GOOGLE_CALENDAR' },
  TWITTER_TWEETS: { type: 'TWITTER_TWEETS', tokenId: 'token-1' },
  TWITTER_TIMELINE: { type: 'TWITTER_TIMELINE', tokenId: 'token-1' },
  TWITTER_SEARCH: { type: 'TWITTER_SEARCH', tokenId: 'token-1', search: 'typescript' },
  TWITTER_LIST: { type: 'TWITTER_LIST', tokenId: 'token-1', listId: '42' },
  YOUTUBE: { type: 'YOUTUBE', channelId: 'UCsBjURrPoezykLs9EqgamOA' },
  PRODUCT_HUNT: { type: 'PRODUCT_HUNT' },
  STRIPE: { type: 'STRIPE' },
};

describe('every source kind has one strict schema', () => {
  it.each(SOURCE_TYPES)('%s parses with its minimal settings, and the result is a stored source', (type) => {
    const source = parse(MINIMAL[type]);
    expect(source.type).toBe(type);
    expect(storedSourceSchema.parse(source)).toEqual(source);
    expect(parse(source)).toEqual(source);
    expect(SOURCE_SCHEMAS[type].parse(MINIMAL[type])).toEqual(source);
  });

  it.each(SOURCE_TYPES)('%s refuses an unknown field', (type) => {
    expect(messages({ ...MINIMAL[type], colour: 'red' })).toEqual(['Unrecognized key: "colour"']);
  });

  it.each(SOURCE_TYPES)('%s accepts an icon and drops it (icons are not stored)', (type) => {
    const source = parse({ ...MINIMAL[type], icon: '<svg/>' });
    expect(source).not.toHaveProperty('icon');
  });

  it("refuses an unknown type, a missing type and TODAY'S_DATE (saved as DATE)", () => {
    for (const value of [{ type: 'MYSPACE' }, {}, { type: "TODAY'S_DATE" }]) {
      expect(messages(value)[0]).toMatch(/^Source type must be one of WEATHER, HACKER_NEWS, DATE/);
    }
  });
});

describe('docs/product.md §9 defaults', () => {
  it('Hacker News: 6 posts, 2 columns, named Hacker News, only new items', () => {
    expect(defaultSource('HACKER_NEWS')).toEqual({
      type: 'HACKER_NEWS',
      name: 'Hacker News',
      showHeading: true,
      numberOfPosts: 6,
      story: 'top',
      askHN: false,
      showHN: false,
      layout: 2,
      onlyNew: true,
    });
  });

  it('RSS: 6 posts, 2 columns, images Show, content Paragraph', () => {
    expect(parse(MINIMAL.RSS)).toMatchObject({
      numberOfPosts: 6,
      layout: 2,
      images: 'show',
      postBody: 'paragraph',
    });
  });

  it('Reddit: the same as RSS', () => {
    expect(parse(MINIMAL.REDDIT)).toMatchObject({
      numberOfPosts: 6,
      layout: 2,
      images: 'show',
      postBody: 'paragraph',
    });
  });

  it('YouTube and Product Hunt: 6 posts, 2 columns', () => {
    expect(parse(MINIMAL.YOUTUBE)).toMatchObject({ numberOfPosts: 6, layout: 2 });
    expect(defaultSource('PRODUCT_HUNT')).toMatchObject({
      numberOfPosts: 6,
      layout: 2,
      name: 'Product Hunt',
    });
  });

  it('tweets: 6 in total, 3 per user, popular, 1 column; timeline 6 and 3, popular', () => {
    expect(parse(MINIMAL.TWITTER_TWEETS)).toMatchObject({
      limit: 6,
      numberOfTweetsPerUser: 3,
      tweetType: 'popular',
      layout: 1,
    });
    expect(parse(MINIMAL.TWITTER_TIMELINE)).toMatchObject({
      limit: 6,
      numberOfTweetsPerUser: 3,
      tweetType: 'popular',
    });
  });

  it('search: 5, latest; lists: 8 and 4, latest', () => {
    expect(parse(MINIMAL.TWITTER_SEARCH)).toMatchObject({ limit: 5, tweetType: 'latest' });
    expect(parse(MINIMAL.TWITTER_LIST)).toMatchObject({
      limit: 8,
      numberOfTweetsPerUser: 4,
      tweetType: 'latest',
    });
  });

  it('weather: 5 days, Fahrenheit; calendar: next 7 days, 12 hours', () => {
    expect(parse(MINIMAL.WEATHER)).toMatchObject({ forecastIntervalType: 5, temperatureType: 'F' });
    expect(parse(MINIMAL.GOOGLE_CALENDAR)).toMatchObject({ eventType: 'week', eventTime: '12h' });
  });
});

describe('docs/product.md §5 ranges (min 0)', () => {
  const countField: Record<keyof typeof SOURCE_POST_LIMITS, string> = {
    HACKER_NEWS: 'numberOfPosts',
    PRODUCT_HUNT: 'numberOfPosts',
    REDDIT: 'numberOfPosts',
    YOUTUBE: 'numberOfPosts',
    RSS: 'numberOfPosts',
    NEWSLETTERS: 'count',
    TWITTER_TWEETS: 'limit',
    TWITTER_TIMELINE: 'limit',
    TWITTER_LIST: 'limit',
    TWITTER_SEARCH: 'limit',
  };
  it.each(Object.entries(SOURCE_POST_LIMITS))('%s: its least (0 unless it says) to %i', (type, max) => {
    const field = countField[type as keyof typeof SOURCE_POST_LIMITS];
    const base = MINIMAL[type as SourceType];
    const min = sourceKindOf(type as SourceType).count?.min ?? 0;
    expect(parse({ ...base, [field]: min })).toMatchObject({ [field]: min });
    expect(parse({ ...base, [field]: max })).toMatchObject({ [field]: max });
    expect(messages({ ...base, [field]: max + 1 })[0]).toMatch(new RegExp(`must be at most ${max}$`));
    expect(messages({ ...base, [field]: min - 1 })[0]).toMatch(new RegExp(`must be at least ${min}$`));
    expect(messages({ ...base, [field]: 2.5 })[0]).toMatch(/must be a whole number$/);
  });

  it('the limits are those of docs/product.md §5', () => {
    expect(SOURCE_POST_LIMITS).toEqual({
      HACKER_NEWS: 10,
      PRODUCT_HUNT: 10,
      REDDIT: 10,
      YOUTUBE: 10,
      RSS: 50,
      NEWSLETTERS: 20,
      TWITTER_TWEETS: 50,
      TWITTER_TIMELINE: 50,
      TWITTER_LIST: 50,
      TWITTER_SEARCH: 20,
    });
  });

  it('refuses a third layout, other image and content options, a forecast of 3 days, Kelvin', () => {
    expect(messages({ ...MINIMAL.RSS, layout: 3 })).toEqual(['Layout must be 1 (1 Column) or 2 (2 Columns)']);
    expect(messages({ ...MINIMAL.RSS, images: 'Show' })).toEqual(["Images must be 'show' or 'hide'"]);
    expect(messages({ ...MINIMAL.RSS, postBody: 'summary' })).toEqual([
      "Post content must be 'full', 'paragraph' or 'hide'",
    ]);
    expect(messages({ ...MINIMAL.WEATHER, forecastIntervalType: 3 })).toEqual([
      'Forecast must be 1 or 5 days',
    ]);
    expect(messages({ ...MINIMAL.WEATHER, temperatureType: 'K' })).toEqual([
      "Temperature must be 'F' or 'C'",
    ]);
    expect(messages({ ...MINIMAL.WEATHER, latitude: 91 })).toEqual(['Latitude must be between -90 and 90']);
  });
});

describe('docs/product.md §5 source rules', () => {
  it('a display name of only white space becomes empty', () => {
    expect(parse({ ...MINIMAL.HACKER_NEWS, name: '   ' }).name).toBe('');
    expect(parse({ ...MINIMAL.RSS, name: '  My feed ' }).name).toBe('My feed');
  });

  it('RSS: post content Hide forces images Hide', () => {
    expect(parse({ ...MINIMAL.RSS, postBody: 'hide', images: 'show' })).toMatchObject({
      postBody: 'hide',
      images: 'hide',
    });
    expect(parse({ ...MINIMAL.RSS, postBody: 'full', images: 'show' })).toMatchObject({ images: 'show' });
  });

  it('empty option lists are dropped from the saved source', () => {
    expect(parse({ ...MINIMAL.STRIPE, stripeAccounts: [] })).not.toHaveProperty('stripeAccounts');
    expect(parse({ ...MINIMAL.GOOGLE_CALENDAR, selectedEvents: [] })).not.toHaveProperty('selectedEvents');
    expect(parse({ ...MINIMAL.TWITTER_TWEETS, twitterUsers: [] })).not.toHaveProperty('twitterUsers');
  });

  it('a calendar account is kept once per tokenId (the first)', () => {
    const source = parse({
      ...MINIMAL.GOOGLE_CALENDAR,
      selectedEvents: [
        { tokenId: 'a', email: 'first@example.com' },
        { tokenId: 'b' },
        { tokenId: 'a', email: 'second@example.com' },
      ],
    });
    expect(source).toMatchObject({
      selectedEvents: [
        { tokenId: 'a', email: 'first@example.com', events: true, holidays: false, birthdays: false },
        { tokenId: 'b' },
      ],
    });
  });

  it('Twitter users are unique by username', () => {
    const user = (username: string, id: string) => ({ twitterUserId: id, username });
    const source = parse({
      ...MINIMAL.TWITTER_TWEETS,
      twitterUsers: [user('jack', '1'), user('Jack', '2'), user('ev', '3')],
    });
    expect(source).toMatchObject({ twitterUsers: [{ twitterUserId: '1' }, { twitterUserId: '3' }] });
  });

  it('Stripe accounts are unique by tokenId', () => {
    const source = parse({
      ...MINIMAL.STRIPE,
      stripeAccounts: [{ tokenId: 's' }, { tokenId: 's', revenue: false }],
    });
    expect(source).toMatchObject({
      stripeAccounts: [{ tokenId: 's', revenue: true, payments: true, customers: true }],
    });
  });

  it('a subreddit is stored without r/ and must be a subreddit name', () => {
    expect(parse({ ...MINIMAL.REDDIT, sourceName: '/r/typescript' })).toMatchObject({
      sourceName: 'typescript',
    });
    expect(messages({ ...MINIMAL.REDDIT, sourceName: 'no spaces please' })[0]).toMatch(/^Subreddit must be/);
  });

  it('a Twitter search starts with a word of more than 2 characters', () => {
    expect(messages({ ...MINIMAL.TWITTER_SEARCH, search: 'ab cdef' })).toEqual([
      'Search phrase must start with a word of more than 2 characters',
    ]);
    expect(parse({ ...MINIMAL.TWITTER_SEARCH, search: 'abc' })).toMatchObject({ search: 'abc' });
  });

  it('account sources need their account', () => {
    expect(messages({ type: 'TWITTER_TIMELINE' })).toEqual(['Twitter account is required']);
  });

  it('an RSS feed link must be an http(s) URL', () => {
    expect(messages({ ...MINIMAL.RSS, feedLink: 'javascript:alert(1)' })).toEqual([
      'Feed link must be an http(s) URL',
    ]);
  });
});

describe('Newsletters: all included senders or chosen ones, how many, and the layout', () => {
  const SENDER = '8a0c43f5-5d3e-4a57-9b1e-3d6f1f0a2b11';
  const OTHER = '1b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8';

  it('defaults to all included senders, 5 newsletters, title, sender and excerpt', () => {
    expect(parse(MINIMAL.NEWSLETTERS)).toEqual({
      type: 'NEWSLETTERS',
      name: 'Newsletters',
      showHeading: true,
      senders: 'all',
      count: 5,
      layout: 'summary',
    });
  });

  it('takes chosen senders by id, each once, and the whole-issue layout', () => {
    expect(parse({ ...MINIMAL.NEWSLETTERS, senders: [SENDER, OTHER, SENDER], layout: 'full' })).toMatchObject(
      {
        senders: [SENDER, OTHER],
        layout: 'full',
      },
    );
  });

  it('refuses no chosen sender, a sender that is not an id, another word than all, and a third layout', () => {
    expect(messages({ ...MINIMAL.NEWSLETTERS, senders: [] })).toEqual([
      'Choose at least one sender, or all senders',
    ]);
    expect(messages({ ...MINIMAL.NEWSLETTERS, senders: ['news@example.com'] })).toEqual([
      'Each chosen sender must be a sender id',
    ]);
    expect(messages({ ...MINIMAL.NEWSLETTERS, senders: 'some' })).toEqual([
      "Senders must be 'all' or a list of chosen senders",
    ]);
    expect(messages({ ...MINIMAL.NEWSLETTERS, layout: 2 })).toEqual([
      "Layout must be 'full' (whole issue) or 'summary'",
    ]);
  });

  it('asks for 1 to 20 newsletters: a block of none would never carry one', () => {
    expect(messages({ ...MINIMAL.NEWSLETTERS, count: 0 })).toEqual([
      'Number of newsletters must be at least 1',
    ]);
    expect(messages({ ...MINIMAL.NEWSLETTERS, count: 21 })).toEqual([
      'Number of newsletters must be at most 20',
    ]);
  });
});
