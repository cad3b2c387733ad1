import type { SourceType } from '../sources';
import type { DateContent } from './date';
import type { CalendarContent } from './google-calendar';
import type { HackerNewsContent } from './hacker-news';
import type { ProductHuntContent } from './product-hunt';
import type { RedditContent } from './reddit';
import type { RssContent } from './rss';
import type { StripeContent } from './stripe';
import type { TwitterContent } from './twitter';
import type { WeatherContent } from './weather';
import type { YoutubeContent } from './youtube';

/**
 * The live content of one source block (SPEC §3 "data" / "items"), as connectors produce it and as the
 * builder preview and the e-mail render it. Plain JSON: dates are ISO 8601 strings, HTML fields are
 * already sanitised by the server.
 */
export interface SourceContentMap {
  WEATHER: WeatherContent;
  HACKER_NEWS: HackerNewsContent;
  DATE: DateContent;
  RSS: RssContent;
  REDDIT: RedditContent;
  GOOGLE_CALENDAR: CalendarContent;
  TWITTER_TWEETS: TwitterContent;
  TWITTER_TIMELINE: TwitterContent;
  TWITTER_SEARCH: TwitterContent;
  TWITTER_LIST: TwitterContent;
  YOUTUBE: YoutubeContent;
  PRODUCT_HUNT: ProductHuntContent;
  STRIPE: StripeContent;
}

export type SourceContentOf<T extends SourceType> = SourceContentMap[T];

export type * from './date';
export type * from './google-calendar';
export type * from './hacker-news';
export type * from './product-hunt';
export type * from './reddit';
export type * from './rss';
export type * from './stripe';
export type * from './twitter';
export type * from './weather';
export type * from './youtube';
