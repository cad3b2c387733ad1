import { describe, expect, it } from 'vitest';
import { guidedBuilderPath, parseGuidedSources, withGuidedSources } from './guided-sources';

describe('guided sequence parameter (docs/product.md §2)', () => {
  it('turns comma-separated keys into kinds, in their order', () => {
    expect(parseGuidedSources('rss,todaysDate,googleCalendar', 20)).toEqual([
      'RSS',
      'DATE',
      'GOOGLE_CALENDAR',
    ]);
  });

  it('knows every key of the specified list', () => {
    const all =
      'googleCalendar,youtube,productHunt,rss,reddit,hackerNews,stripe,todaysDate,weather,twitterTweets';
    expect(parseGuidedSources(all, 20)).toEqual([
      'GOOGLE_CALENDAR',
      'YOUTUBE',
      'PRODUCT_HUNT',
      'RSS',
      'REDDIT',
      'HACKER_NEWS',
      'STRIPE',
      'DATE',
      'WEATHER',
      'TWITTER_TWEETS',
    ]);
  });

  it('drops unknown keys, internal names and inherited object keys', () => {
    expect(parseGuidedSources('rss,RSS,twitterTimeline,toString,,weather', 20)).toEqual(['RSS', 'WEATHER']);
  });

  it('drops repeated keys', () => {
    expect(parseGuidedSources('reddit,rss,reddit, rss', 20)).toEqual(['REDDIT', 'RSS']);
  });

  it('keeps no more kinds than the digest has room for (20 sources at most)', () => {
    expect(parseGuidedSources('rss,reddit,weather', 2)).toEqual(['RSS', 'REDDIT']);
    expect(parseGuidedSources('rss,reddit', 0)).toEqual([]);
    expect(parseGuidedSources('rss', -1)).toEqual([]);
  });

  it('opens nothing without a parameter', () => {
    expect(parseGuidedSources(null, 20)).toEqual([]);
    expect(parseGuidedSources('', 20)).toEqual([]);
  });

  it('builds the builder address back from kinds, plain without any', () => {
    expect(guidedBuilderPath(['WEATHER', 'DATE'])).toBe('/digestCreator?sources=weather,todaysDate');
    expect(guidedBuilderPath([])).toBe('/digestCreator');
    expect(parseGuidedSources(new URLSearchParams('sources=weather,todaysDate').get('sources'), 20)).toEqual([
      'WEATHER',
      'DATE',
    ]);
  });

  it('names kinds on any page, leaving out those the parameter cannot name', () => {
    expect(withGuidedSources('/createDigest', ['DATE', 'TWITTER_TIMELINE', 'HACKER_NEWS'])).toBe(
      '/createDigest?sources=todaysDate,hackerNews',
    );
    expect(withGuidedSources('/signup', ['TWITTER_TIMELINE'])).toBe('/signup');
  });
});
