import type { SourceType } from './sources';

/**
 * Keys of the guided sequence URL parameter (docs/product.md §2) and the kind each one opens; a kind that is
 * not here cannot be named by it (the Twitter kinds other than tweets, newsletters). A table of its own
 * rather than a field of each kind's descriptor: the signed-out pages carry the parameter on, and reaching
 * it through the descriptors loaded every kind's settings schema with the log-in page (issue 15).
 */
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
