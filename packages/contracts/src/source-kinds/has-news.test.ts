import { describe, expect, it } from 'vitest';
import { sourceKindOf } from '../sources';
import { sourceKinds } from '.';
import type { CalendarEvent } from './google-calendar';

describe('a block has news when it has something to read', () => {
  it("today's date never has: it alone does not make an issue worth sending", () => {
    const today = {
      date: '2026-11-22',
      formatted: 'Sunday, November 22, 2026',
      weekday: 'Sunday',
      timezone: 'UTC',
    };
    expect(sourceKindOf('DATE').hasNews(today)).toBe(false);
  });

  it('the weather has when it has a forecast (one item however many days)', () => {
    const weather = {
      locationName: 'Warsaw',
      timezone: 'Europe/Warsaw',
      forecastIntervalType: 5 as const,
      temperatureType: 'C' as const,
      forecasts: [],
    };
    expect(sourceKinds.WEATHER.hasNews(weather)).toBe(false);
    expect(sourceKinds.WEATHER.items.count(weather)).toBe(1);
  });

  it('a calendar has when one of its days has an event', () => {
    // Only how many events a day has matters here.
    const day = (events: number) => ({
      date: '2026-11-22',
      label: 'Sunday, November 22',
      events: Array.from({ length: events }, (_, index) => ({ title: `Event ${index}` }) as CalendarEvent),
    });
    const calendar = (...days: number[]) => ({
      timeStatus: 'week',
      timePeriod: 'Nov 22 – Nov 28',
      days: days.map(day),
      errors: [],
    });
    expect(sourceKinds.GOOGLE_CALENDAR.hasNews(calendar(0, 0))).toBe(false);
    expect(sourceKinds.GOOGLE_CALENDAR.hasNews(calendar(0, 2))).toBe(true);
  });

  it('the other kinds have when their list has an item, and count its items', () => {
    const empty = {
      HACKER_NEWS: sourceKinds.HACKER_NEWS.hasNews({ items: [] }),
      PRODUCT_HUNT: sourceKinds.PRODUCT_HUNT.hasNews({ items: [] }),
      REDDIT: sourceKinds.REDDIT.hasNews({ subreddit: 'typescript', posts: [] }),
      TWITTER_LIST: sourceKinds.TWITTER_LIST.hasNews({ tweets: [] }),
      YOUTUBE: sourceKinds.YOUTUBE.hasNews({ channelId: 'UCabc', channelName: 'Chan', videos: [] }),
      STRIPE: sourceKinds.STRIPE.hasNews({ periodStart: '', periodEnd: '', accounts: [] }),
      NEWSLETTERS: sourceKinds.NEWSLETTERS.hasNews({ items: [] }),
    };
    expect(empty).toEqual({
      HACKER_NEWS: false,
      PRODUCT_HUNT: false,
      REDDIT: false,
      TWITTER_LIST: false,
      YOUTUBE: false,
      STRIPE: false,
      NEWSLETTERS: false,
    });
    const feed = {
      feed: { title: 'Feed', link: 'https://example.com/', favicon: '', url: 'https://example.com/feed' },
      items: [],
    };
    const item = {
      title: 'Post',
      content: '',
      creator: '',
      link: 'https://example.com/1',
      pubDate: '',
      image: '',
    };
    expect(sourceKinds.RSS.hasNews(feed)).toBe(false);
    expect(sourceKinds.RSS.hasNews({ ...feed, items: [item] })).toBe(true);
    expect(sourceKinds.RSS.items.count({ ...feed, items: [item, item] })).toBe(2);
  });

  it('newsletters have while one is waiting for this digest, and count one item each', () => {
    const waiting = {
      messageId: '8a0c43f5-5d3e-4a57-9b1e-3d6f1f0a2b11',
      subject: 'Letters #1',
      senderName: 'Letters',
      fromAddress: 'news@letters.example',
      receivedAt: '2026-11-21T10:00:00Z',
      excerpt: 'This week',
      url: 'https://digest.example/newsletters/8a0c43f5-5d3e-4a57-9b1e-3d6f1f0a2b11',
      html: '',
      text: '',
      tooLong: false,
    };
    expect(sourceKinds.NEWSLETTERS.hasNews({ items: [waiting] })).toBe(true);
    expect(sourceKinds.NEWSLETTERS.items.count({ items: [waiting, waiting] })).toBe(2);
  });
});
