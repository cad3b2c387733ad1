import { z } from 'zod';

/**
 * Source settings (SPEC §3 fields, §5 ranges, §9 defaults): one strict zod schema per source kind,
 * discriminated by `type`. Parsing a source:
 * - fills omitted settings with SPEC §9 defaults;
 * - refuses an unknown `type` or an unknown field;
 * - accepts and drops `icon` (icons are never stored);
 * - trims the display name (white space only becomes '');
 * - drops empty option lists (calendar accounts, Twitter users, Stripe accounts);
 * - keeps one calendar or Stripe account per `tokenId` and one Twitter user per `username` (the first);
 * - RSS: post content 'hide' forces images 'hide'.
 *
 * `sourceSchema` validates what a client sends; `storedSourceSchema` describes what the server answers
 * (the same fields, every default filled in, no transforms).
 */

// ---------------------------------------------------------------------------------------------------
// Kinds and option values
// ---------------------------------------------------------------------------------------------------

/** SPEC §3 internal names, as saved (`TODAY'S_DATE` is saved as `DATE`). */
export const SOURCE_TYPES = [
  'WEATHER',
  'HACKER_NEWS',
  'DATE',
  'RSS',
  'REDDIT',
  'GOOGLE_CALENDAR',
  'TWITTER_TWEETS',
  'TWITTER_TIMELINE',
  'TWITTER_SEARCH',
  'TWITTER_LIST',
  'YOUTUBE',
  'PRODUCT_HUNT',
  'STRIPE',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Source kinds that need a connected account (`tokenId`) before they can be saved. */
export const ACCOUNT_SOURCE_TYPES = [
  'GOOGLE_CALENDAR',
  'TWITTER_TWEETS',
  'TWITTER_TIMELINE',
  'TWITTER_SEARCH',
  'TWITTER_LIST',
  'STRIPE',
] as const satisfies readonly SourceType[];

/** SPEC §3 data-source path names (`/api/data-sources/{path}`) by kind; DATE has none. */
export const SOURCE_DATA_PATHS: Record<SourceType, string | null> = {
  WEATHER: 'weather',
  HACKER_NEWS: 'hacker-news',
  DATE: null,
  RSS: 'rss',
  REDDIT: 'reddit',
  GOOGLE_CALENDAR: 'google-calendar',
  TWITTER_TWEETS: 'twitter',
  TWITTER_TIMELINE: 'twitter',
  TWITTER_SEARCH: 'twitter',
  TWITTER_LIST: 'twitter',
  YOUTUBE: 'youtube',
  PRODUCT_HUNT: 'product-hunt',
  STRIPE: 'stripe',
};

/** Keys of the guided sequence URL parameter (SPEC §2) and the kind each one opens. */
export const GUIDED_SOURCE_KEYS = {
  googleCalendar: 'GOOGLE_CALENDAR',
  youtube: 'YOUTUBE',
  productHunt: 'PRODUCT_HUNT',
  rss: 'RSS',
  reddit: 'REDDIT',
  hackerNews: 'HACKER_NEWS',
  stripe: 'STRIPE',
  todaysDate: 'DATE',
  weather: 'WEATHER',
  twitterTweets: 'TWITTER_TWEETS',
} as const satisfies Record<string, SourceType>;

/** Upper bound of `numberOfPosts` / `limit` per kind (SPEC §5); the lower bound is 0. */
export const SOURCE_POST_LIMITS = {
  HACKER_NEWS: 10,
  PRODUCT_HUNT: 10,
  REDDIT: 10,
  YOUTUBE: 10,
  RSS: 50,
  TWITTER_TWEETS: 50,
  TWITTER_TIMELINE: 50,
  TWITTER_LIST: 50,
  TWITTER_SEARCH: 20,
} as const;

export const LAYOUTS = [1, 2] as const;
export const IMAGE_OPTIONS = ['show', 'hide'] as const;
export const POST_BODY_OPTIONS = ['full', 'paragraph', 'hide'] as const;
export const TWEET_TYPES = ['latest', 'popular'] as const;
export const FORECAST_INTERVALS = [1, 5] as const;
export const TEMPERATURE_TYPES = ['F', 'C'] as const;
export const CALENDAR_EVENT_TYPES = ['today', 'tomorrow', 'week'] as const;
export const CALENDAR_TIME_FORMATS = ['12h', '24h'] as const;
export const HACKER_NEWS_STORIES = ['top', 'latest'] as const;

export type Layout = (typeof LAYOUTS)[number];
export type ImagesOption = (typeof IMAGE_OPTIONS)[number];
export type PostBodyOption = (typeof POST_BODY_OPTIONS)[number];
export type TweetType = (typeof TWEET_TYPES)[number];

/** SPEC §9 option labels, in the order the builder shows them. */
export const LAYOUT_OPTIONS = [
  { value: 1, label: '1 Column' },
  { value: 2, label: '2 Columns' },
] as const;
export const IMAGES_OPTIONS = [
  { value: 'show', label: 'Show' },
  { value: 'hide', label: 'Hide' },
] as const;
/** RSS and Reddit post content. */
export const POST_CONTENT_OPTIONS = [
  { value: 'full', label: 'Full' },
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'hide', label: 'Hide' },
] as const;
export const TWEET_TYPE_OPTIONS = [
  { value: 'latest', label: 'Latest' },
  { value: 'popular', label: 'Popular' },
] as const;
export const FORECAST_OPTIONS = [
  { value: 1, label: '1 day' },
  { value: 5, label: '5 days' },
] as const;
export const TEMPERATURE_OPTIONS = [
  { value: 'F', label: 'Fahrenheit (°F)' },
  { value: 'C', label: 'Celsius (°C)' },
] as const;
export const CALENDAR_EVENT_OPTIONS = [
  { value: 'today', label: "Today's" },
  { value: 'tomorrow', label: "Tomorrow's" },
  { value: 'week', label: 'Next 7 days of events' },
] as const;
export const CALENDAR_TIME_OPTIONS = [
  { value: '12h', label: '12 Hours' },
  { value: '24h', label: '24 Hours' },
] as const;
export const HACKER_NEWS_STORY_OPTIONS = [
  { value: 'top', label: 'Top stories' },
  { value: 'latest', label: 'Latest stories' },
] as const;

/** Name a kind shows when the user gives none (the builder's block title). */
export const SOURCE_LABELS: Record<SourceType, string> = {
  WEATHER: 'Weather',
  HACKER_NEWS: 'Hacker News',
  DATE: "Today's Date",
  RSS: 'RSS',
  REDDIT: 'Reddit',
  GOOGLE_CALENDAR: 'Google Calendar',
  TWITTER_TWEETS: 'Twitter tweets',
  TWITTER_TIMELINE: 'Twitter timeline',
  TWITTER_SEARCH: 'Twitter search',
  TWITTER_LIST: 'Twitter list',
  YOUTUBE: 'YouTube',
  PRODUCT_HUNT: 'Product Hunt',
  STRIPE: 'Stripe',
};

// ---------------------------------------------------------------------------------------------------
// Field schemas
// ---------------------------------------------------------------------------------------------------

export const SOURCE_NAME_MAX_LENGTH = 100;
const TEXT_MAX = 500;
const URL_MAX = 2048;
const ID_MAX = 200;

/** Display name: trimmed, so white space only becomes ''. */
const displayName = (fallback: string) =>
  z
    .string()
    .max(SOURCE_NAME_MAX_LENGTH, {
      error: `Source name should have at most ${SOURCE_NAME_MAX_LENGTH} characters`,
    })
    .trim()
    .default(fallback);

const count = (max: number, fallback: number, label = 'Number of posts') =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(0, { error: `${label} must be at least 0` })
    .max(max, { error: `${label} must be at most ${max}` })
    .default(fallback);

const layout = (fallback: Layout) =>
  z.literal(LAYOUTS, { error: 'Layout must be 1 (1 Column) or 2 (2 Columns)' }).default(fallback);
const images = (fallback: ImagesOption = 'show') =>
  z.enum(IMAGE_OPTIONS, { error: "Images must be 'show' or 'hide'" }).default(fallback);
const postBody = (fallback: PostBodyOption = 'paragraph') =>
  z
    .enum(POST_BODY_OPTIONS, { error: "Post content must be 'full', 'paragraph' or 'hide'" })
    .default(fallback);
const tweetType = (fallback: TweetType) =>
  z.enum(TWEET_TYPES, { error: "Tweet type must be 'latest' or 'popular'" }).default(fallback);
const flag = (fallback = false) => z.boolean().default(fallback);
const showHeading = () => z.boolean().default(true);
const text = (max = TEXT_MAX) => z.string().trim().max(max);
const id = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(ID_MAX);
/** An http(s) URL. */
const httpUrl = (label: string) =>
  z.url({ protocol: /^https?$/, error: `${label} must be an http(s) URL` }).max(URL_MAX);
/** A picture URL the provider gave us (or none). */
const pictureUrl = () =>
  z
    .union([z.literal(''), httpUrl('Picture')])
    .nullable()
    .optional();
/** Accepted from the builder and dropped: icons are not stored. */
const icon = () => z.unknown().optional();

// ---------------------------------------------------------------------------------------------------
// Per-kind shapes (field → schema with default). Stored shape = the same fields, all present.
// ---------------------------------------------------------------------------------------------------

const common = (fallbackName: string) => ({
  name: displayName(fallbackName),
  showHeading: showHeading(),
});

const weatherShape = {
  type: z.literal('WEATHER'),
  ...common(SOURCE_LABELS.WEATHER),
  forecastIntervalType: z.literal(FORECAST_INTERVALS, { error: 'Forecast must be 1 or 5 days' }).default(5),
  temperatureType: z.enum(TEMPERATURE_TYPES, { error: "Temperature must be 'F' or 'C'" }).default('F'),
  latitude: z
    .number({ error: 'Latitude is required' })
    .min(-90, { error: 'Latitude must be between -90 and 90' })
    .max(90, { error: 'Latitude must be between -90 and 90' }),
  longitude: z
    .number({ error: 'Longitude is required' })
    .min(-180, { error: 'Longitude must be between -180 and 180' })
    .max(180, { error: 'Longitude must be between -180 and 180' }),
  locationName: id('Location name'),
};

const hackerNewsShape = {
  type: z.literal('HACKER_NEWS'),
  ...common(SOURCE_LABELS.HACKER_NEWS),
  numberOfPosts: count(SOURCE_POST_LIMITS.HACKER_NEWS, 6),
  /** 'top' (front page) or 'latest' (newest) stories. */
  story: z.enum(HACKER_NEWS_STORIES, { error: "Story must be 'top' or 'latest'" }).default('top'),
  askHN: flag(),
  showHN: flag(),
  layout: layout(2),
};

const dateShape = {
  type: z.literal('DATE'),
  ...common(SOURCE_LABELS.DATE),
};

const rssShape = {
  type: z.literal('RSS'),
  ...common(''),
  feedLink: httpUrl('Feed link'),
  sourceName: text(SOURCE_NAME_MAX_LENGTH).default(''),
  favicon: pictureUrl(),
  numberOfPosts: count(SOURCE_POST_LIMITS.RSS, 6),
  images: images('show'),
  postBody: postBody('paragraph'),
  layout: layout(2),
};

/** A subreddit name without the r/ prefix (Reddit allows 2–21 letters, digits and underscores). */
export const subredditNameSchema = z
  .string({ error: 'Subreddit is required' })
  .trim()
  .transform((value) => value.replace(/^\/?r\//i, ''))
  .pipe(
    z.string().regex(/^[A-Za-z0-9_]{2,21}$/, {
      error: 'Subreddit must be 2 to 21 letters, digits or underscores, without r/',
    }),
  );

const redditShape = {
  type: z.literal('REDDIT'),
  ...common(''),
  sourceName: subredditNameSchema,
  numberOfPosts: count(SOURCE_POST_LIMITS.REDDIT, 6),
  images: images('show'),
  postBody: postBody('paragraph'),
  layout: layout(2),
};

const calendarAccountSchema = z
  .object({
    tokenId: id('Calendar account'),
    email: text(254).default(''),
    events: flag(true),
    holidays: flag(false),
    birthdays: flag(false),
  })
  .strict();

const googleCalendarShape = {
  type: z.literal('GOOGLE_CALENDAR'),
  ...common(SOURCE_LABELS.GOOGLE_CALENDAR),
  eventType: z
    .enum(CALENDAR_EVENT_TYPES, { error: "Events must be 'today', 'tomorrow' or 'week'" })
    .default('week'),
  eventTime: z.enum(CALENDAR_TIME_FORMATS, { error: "Time format must be '12h' or '24h'" }).default('12h'),
  selectedEvents: z.array(calendarAccountSchema).max(20).optional(),
};

const twitterUserSchema = z
  .object({
    twitterUserId: id('Twitter user id'),
    fullName: text(200).default(''),
    username: id('Twitter username'),
    image: pictureUrl(),
    followersCount: z.number().int().min(0).optional(),
  })
  .strict();

const twitterAccount = {
  tokenId: id('Twitter account'),
  /** The connected account's username. */
  username: text(200).default(''),
};

const twitterTweetsShape = {
  type: z.literal('TWITTER_TWEETS'),
  ...common(SOURCE_LABELS.TWITTER_TWEETS),
  ...twitterAccount,
  includeRetweets: flag(),
  limit: count(SOURCE_POST_LIMITS.TWITTER_TWEETS, 6, 'Number of tweets'),
  numberOfTweetsPerUser: count(SOURCE_POST_LIMITS.TWITTER_TWEETS, 3, 'Tweets per user'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('popular'),
  twitterUsers: z.array(twitterUserSchema).max(100).optional(),
};

const twitterTimelineShape = {
  type: z.literal('TWITTER_TIMELINE'),
  ...common(SOURCE_LABELS.TWITTER_TIMELINE),
  ...twitterAccount,
  includeRetweets: flag(),
  limit: count(SOURCE_POST_LIMITS.TWITTER_TIMELINE, 6, 'Number of tweets'),
  numberOfTweetsPerUser: count(SOURCE_POST_LIMITS.TWITTER_TIMELINE, 3, 'Tweets per user'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('popular'),
};

const twitterSearchShape = {
  type: z.literal('TWITTER_SEARCH'),
  ...common(SOURCE_LABELS.TWITTER_SEARCH),
  ...twitterAccount,
  /** SPEC §5: the first word must be longer than 2 characters. */
  search: z
    .string({ error: 'Search phrase is required' })
    .trim()
    .max(TEXT_MAX)
    .refine((value) => (value.split(/\s+/)[0] ?? '').length > 2, {
      error: 'Search phrase must start with a word of more than 2 characters',
    }),
  limit: count(SOURCE_POST_LIMITS.TWITTER_SEARCH, 5, 'Number of tweets'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('latest'),
  hideRetweets: flag(),
  hideReplies: flag(),
  linksOnly: flag(),
  imagesOnly: flag(),
};

const twitterListShape = {
  type: z.literal('TWITTER_LIST'),
  ...common(SOURCE_LABELS.TWITTER_LIST),
  ...twitterAccount,
  listId: id('List'),
  listName: text(200).default(''),
  includeRetweets: flag(),
  limit: count(SOURCE_POST_LIMITS.TWITTER_LIST, 8, 'Number of tweets'),
  numberOfTweetsPerUser: count(SOURCE_POST_LIMITS.TWITTER_LIST, 4, 'Tweets per user'),
  layout: layout(1),
  images: images('show'),
  tweetType: tweetType('latest'),
};

const youtubeShape = {
  type: z.literal('YOUTUBE'),
  ...common(''),
  channelId: z
    .string({ error: 'Channel is required' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{2,64}$/, { error: 'Channel id must be letters, digits, - or _' }),
  channelName: text(200).default(''),
  sourceName: text(SOURCE_NAME_MAX_LENGTH).default(''),
  numberOfPosts: count(SOURCE_POST_LIMITS.YOUTUBE, 6),
  layout: layout(2),
  images: images('show'),
};

const productHuntShape = {
  type: z.literal('PRODUCT_HUNT'),
  ...common(SOURCE_LABELS.PRODUCT_HUNT),
  numberOfPosts: count(SOURCE_POST_LIMITS.PRODUCT_HUNT, 6),
  layout: layout(2),
  images: images('show'),
  postBody: postBody('paragraph'),
};

const stripeAccountSchema = z
  .object({
    tokenId: id('Stripe account'),
    username: text(200).default(''),
    revenue: flag(true),
    payments: flag(true),
    customers: flag(true),
    profilePicture: pictureUrl(),
  })
  .strict();

const stripeShape = {
  type: z.literal('STRIPE'),
  ...common(SOURCE_LABELS.STRIPE),
  stripeAccounts: z.array(stripeAccountSchema).max(20).optional(),
};

// ---------------------------------------------------------------------------------------------------
// Normalisation
// ---------------------------------------------------------------------------------------------------

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Drops `icon` and empty option lists, de-duplicates option lists, applies the RSS content rule. */
function normalise<T extends Record<string, unknown>>(source: T & { icon?: unknown }): Omit<T, 'icon'> {
  const { icon: _icon, ...rest } = source;
  const out: Record<string, unknown> = { ...rest };
  const lists: [string, (item: Record<string, unknown>) => string][] = [
    ['selectedEvents', (item) => String(item.tokenId)],
    ['stripeAccounts', (item) => String(item.tokenId)],
    ['twitterUsers', (item) => String(item.username).toLowerCase()],
  ];
  for (const [field, key] of lists) {
    const list = out[field];
    if (list === undefined) continue;
    const unique = uniqueBy(list as Record<string, unknown>[], key);
    if (unique.length === 0) delete out[field];
    else out[field] = unique;
  }
  if (out.type === 'RSS' && out.postBody === 'hide') out.images = 'hide';
  return out as Omit<T, 'icon'>;
}

/** The input schema of one kind: strict, defaults, `icon` accepted then dropped. */
function inputSchema<S extends z.ZodRawShape>(shape: S) {
  return z
    .object({ ...shape, icon: icon() })
    .strict()
    .transform((value) => normalise(value as Record<string, unknown>) as z.output<z.ZodObject<S>>);
}

// ---------------------------------------------------------------------------------------------------
// Exported schemas
// ---------------------------------------------------------------------------------------------------

export const weatherSourceSchema = inputSchema(weatherShape);
export const hackerNewsSourceSchema = inputSchema(hackerNewsShape);
export const dateSourceSchema = inputSchema(dateShape);
export const rssSourceSchema = inputSchema(rssShape);
export const redditSourceSchema = inputSchema(redditShape);
export const googleCalendarSourceSchema = inputSchema(googleCalendarShape);
export const twitterTweetsSourceSchema = inputSchema(twitterTweetsShape);
export const twitterTimelineSourceSchema = inputSchema(twitterTimelineShape);
export const twitterSearchSourceSchema = inputSchema(twitterSearchShape);
export const twitterListSourceSchema = inputSchema(twitterListShape);
export const youtubeSourceSchema = inputSchema(youtubeShape);
export const productHuntSourceSchema = inputSchema(productHuntShape);
export const stripeSourceSchema = inputSchema(stripeShape);

/** One source as a client sends it: `{ type, ...settings }`. */
export const sourceSchema = z.discriminatedUnion(
  'type',
  [
    weatherSourceSchema,
    hackerNewsSourceSchema,
    dateSourceSchema,
    rssSourceSchema,
    redditSourceSchema,
    googleCalendarSourceSchema,
    twitterTweetsSourceSchema,
    twitterTimelineSourceSchema,
    twitterSearchSourceSchema,
    twitterListSourceSchema,
    youtubeSourceSchema,
    productHuntSourceSchema,
    stripeSourceSchema,
  ],
  { error: `Source type must be one of ${SOURCE_TYPES.join(', ')}` },
);

/** A source as the server stores and answers it (every default filled, no `icon`). */
export const storedSourceSchema = z.discriminatedUnion('type', [
  z.object(weatherShape),
  z.object(hackerNewsShape),
  z.object(dateShape),
  z.object(rssShape),
  z.object({ ...redditShape, sourceName: z.string() }),
  z.object(googleCalendarShape),
  z.object(twitterTweetsShape),
  z.object(twitterTimelineShape),
  z.object({ ...twitterSearchShape, search: z.string() }),
  z.object(twitterListShape),
  z.object(youtubeShape),
  z.object(productHuntShape),
  z.object(stripeShape),
]);

/** What a client may send for one source (defaults optional, `icon` allowed). */
export type SourceInput = z.input<typeof sourceSchema>;
/** A validated source: every setting present. */
export type Source = z.output<typeof sourceSchema>;
export type SourceOf<T extends SourceType> = Extract<Source, { type: T }>;
export type SourceInputOf<T extends SourceType> = Extract<SourceInput, { type: T }>;

export type WeatherSource = SourceOf<'WEATHER'>;
export type HackerNewsSource = SourceOf<'HACKER_NEWS'>;
export type DateSource = SourceOf<'DATE'>;
export type RssSource = SourceOf<'RSS'>;
export type RedditSource = SourceOf<'REDDIT'>;
export type GoogleCalendarSource = SourceOf<'GOOGLE_CALENDAR'>;
export type TwitterTweetsSource = SourceOf<'TWITTER_TWEETS'>;
export type TwitterTimelineSource = SourceOf<'TWITTER_TIMELINE'>;
export type TwitterSearchSource = SourceOf<'TWITTER_SEARCH'>;
export type TwitterListSource = SourceOf<'TWITTER_LIST'>;
export type YoutubeSource = SourceOf<'YOUTUBE'>;
export type ProductHuntSource = SourceOf<'PRODUCT_HUNT'>;
export type StripeSource = SourceOf<'STRIPE'>;

/** Schema of one kind, by type (for a builder form of that kind). */
export const SOURCE_SCHEMAS = {
  WEATHER: weatherSourceSchema,
  HACKER_NEWS: hackerNewsSourceSchema,
  DATE: dateSourceSchema,
  RSS: rssSourceSchema,
  REDDIT: redditSourceSchema,
  GOOGLE_CALENDAR: googleCalendarSourceSchema,
  TWITTER_TWEETS: twitterTweetsSourceSchema,
  TWITTER_TIMELINE: twitterTimelineSourceSchema,
  TWITTER_SEARCH: twitterSearchSourceSchema,
  TWITTER_LIST: twitterListSourceSchema,
  YOUTUBE: youtubeSourceSchema,
  PRODUCT_HUNT: productHuntSourceSchema,
  STRIPE: stripeSourceSchema,
} as const satisfies Record<SourceType, z.ZodType>;

/** The settings a new block of this kind starts with (SPEC §9), for kinds that need no choice. */
export function defaultSource<T extends 'HACKER_NEWS' | 'DATE' | 'PRODUCT_HUNT'>(type: T): SourceOf<T> {
  return SOURCE_SCHEMAS[type].parse({ type }) as SourceOf<T>;
}
