import { SOURCE_SCHEMAS, type SourceInputOf, type SourceOf, type SourceType } from '@digest/contracts';
import type {
  CalendarContent,
  NewsletterItem,
  RssContent,
  RssItem,
  SourceContentMap,
  Tweet,
  WeatherContent,
} from '@digest/contracts/content';
import type { BlockInputOf, DigestBlockInput } from './types';

/** Test data: sources through the contracts' schemas (so docs/product.md §9 defaults apply) and content as connectors give it. */

const REQUIRED: { [T in SourceType]?: Partial<SourceInputOf<T>> } = {
  WEATHER: { latitude: 52.2, longitude: 21, locationName: 'Warsaw' },
  RSS: { feedLink: 'https://blog.example.org/feed.xml' },
  REDDIT: { sourceName: 'typescript' },
  TWITTER_TWEETS: { tokenId: 'tok' },
  TWITTER_TIMELINE: { tokenId: 'tok' },
  TWITTER_SEARCH: { tokenId: 'tok', search: 'typescript news' },
  TWITTER_LIST: { tokenId: 'tok', listId: 'l1', listName: 'Friends' },
  YOUTUBE: { channelId: 'UCabc' },
};

export function sourceOf<T extends SourceType>(
  type: T,
  settings: Partial<SourceInputOf<T>> = {},
): SourceOf<T> {
  return SOURCE_SCHEMAS[type].parse({ type, ...REQUIRED[type], ...settings }) as SourceOf<T>;
}

export function blockOf<T extends SourceType>(
  type: T,
  content: SourceContentMap[T] | undefined,
  settings: Partial<SourceInputOf<T>> = {},
): Extract<DigestBlockInput, { source: { type: T } }> {
  const block: BlockInputOf<T> = { source: sourceOf(type, settings), content };
  // A block of kind T is the member of the union for T (TypeScript cannot see it for a generic T).
  return block as unknown as Extract<DigestBlockInput, { source: { type: T } }>;
}

export const context = { locale: 'en-US', timeZone: 'America/New_York' };

export function rssItem(index: number, overrides: Partial<RssItem> = {}): RssItem {
  return {
    title: `Post ${index}`,
    content: `<p>First paragraph ${index}.</p><p>Second paragraph ${index}.</p>`,
    creator: 'Ann Author',
    link: `https://blog.example.org/posts/${index}`,
    pubDate: '2026-11-21T10:00:00Z',
    image: `https://blog.example.org/images/${index}.jpg`,
    ...overrides,
  };
}

export function rssContent(count: number, overrides: Partial<RssItem> = {}): RssContent {
  return {
    feed: {
      title: 'Compile Time',
      link: 'https://blog.example.org/',
      favicon: 'https://blog.example.org/favicon.ico',
      url: 'https://blog.example.org/feed.xml',
    },
    items: Array.from({ length: count }, (_, index) => rssItem(index + 1, overrides)),
  };
}

export function weatherContent(days: 1 | 5): WeatherContent {
  const parts =
    days === 5
      ? ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday']
      : ['Morning', 'Afternoon', 'Evening', 'Night'];
  return {
    locationName: 'Warsaw',
    timezone: 'Europe/Warsaw',
    forecastIntervalType: days,
    temperatureType: 'F',
    forecasts: parts.map((dayPart, index) => ({
      date: `2026-11-${22 + (days === 5 ? index : 0)}`,
      dayPart,
      icon: 'rain',
      summary: 'Light rain',
      tempCelsius: 10 + index,
      tempFahrenheit: 50 + index,
      highestCelsius: 12 + index,
      highestFahrenheit: 54 + index,
      lowestCelsius: 2 + index,
      lowestFahrenheit: 36 + index,
      precipitationPercent: 40,
    })),
  };
}

export function calendarContent(): CalendarContent {
  return {
    timeStatus: 'today',
    timePeriod: 'Sun, Nov 22',
    days: [
      {
        date: '2026-11-22',
        label: 'Sunday, November 22',
        events: [
          {
            kind: 'outOfOffice',
            title: 'Day off',
            startTime: '',
            endTime: '',
            duration: 'All day',
            color: '#039be5',
            calendarLink: 'https://calendar.google.com/event?eid=0',
            account: 'ann@example.com',
          },
          {
            kind: 'birthday',
            title: "Grace Chen's birthday",
            startTime: '',
            endTime: '',
            duration: 'All day',
            color: '#039be5',
            calendarLink: 'https://calendar.google.com/event?eid=3',
            account: 'ann@example.com',
          },
          {
            kind: 'event',
            title: 'Conference',
            startTime: '',
            endTime: '',
            duration: 'All day',
            color: '#039be5',
            calendarLink: 'https://calendar.google.com/event?eid=1',
            account: 'ann@example.com',
          },
          {
            kind: 'event',
            title: 'Dinner with Bob',
            startTime: '7:30 PM',
            endTime: '9:00 PM',
            duration: '1h 30m',
            color: '#f4511e',
            calendarLink: 'https://calendar.google.com/event?eid=2',
            account: 'ann@example.com',
          },
        ],
      },
    ],
    errors: [],
  };
}

export function tweet(index: number, overrides: Partial<Tweet> = {}): Tweet {
  return {
    id: `t${index}`,
    text: `Tweet number ${index}`,
    url: `https://x.com/ann/status/t${index}`,
    user: {
      twitterUserId: 'u1',
      fullName: 'Ann',
      username: 'ann',
      image: 'https://pbs.twimg.com/ann.jpg',
      followersCount: 10,
    },
    media: [
      {
        type: 'photo',
        url: `https://pbs.twimg.com/m${index}.jpg`,
        previewUrl: `https://pbs.twimg.com/m${index}.jpg`,
      },
    ],
    likesCount: 1500,
    retweetsCount: 2_500_000,
    date: '2026-11-21T10:00:00Z',
    referencedTweets: [],
    isRetweeted: false,
    isQuoted: false,
    isReplied: false,
    ...overrides,
  };
}

/** Every `<img>` tag of `html`. */
export const imagesIn = (html: string) => html.match(/<img\b[^>]*>/g) ?? [];

/** The number of column cells in each row of the two-column tables of `html` (rows may hold tables). */
export function columnRows(html: string): number[] {
  const counts: number[] = [];
  const open: number[] = [];
  for (const [tag] of html.matchAll(/<\/?tr\b|<td[^>]*class="dg-column"/g)) {
    if (tag === '<tr') open.push(0);
    else if (tag === '</tr') {
      const cells = open.pop() ?? 0;
      if (cells > 0) counts.push(cells);
    } else if (open.length > 0) open[open.length - 1] = (open.at(-1) ?? 0) + 1;
  }
  return counts;
}

export function newsletterItem(index: number, overrides: Partial<NewsletterItem> = {}): NewsletterItem {
  const messageId = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  return {
    messageId,
    subject: `Letters Weekly #${index}`,
    senderName: 'Letters Weekly',
    fromAddress: 'news@letters.example',
    receivedAt: '2026-11-21T10:00:00Z',
    excerpt: `This week, part ${index}: three things worth reading.`,
    url: `https://digest.example/newsletters/${messageId}`,
    html: '',
    text: '',
    tooLong: false,
    ...overrides,
  };
}
