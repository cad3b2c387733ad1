import { dateKind } from './date';
import { googleCalendarKind } from './google-calendar';
import { hackerNewsKind } from './hacker-news';
import { newslettersKind } from './newsletters';
import { productHuntKind } from './product-hunt';
import { redditKind } from './reddit';
import { rssKind } from './rss';
import { stripeKind } from './stripe';
import { twitterListKind, twitterSearchKind, twitterTimelineKind, twitterTweetsKind } from './twitter';
import { weatherKind } from './weather';
import { youtubeKind } from './youtube';

export * from './conditions';
export * from './date';
export * from './google-calendar';
export * from './hacker-news';
export * from './newsletters';
export * from './product-hunt';
export * from './reddit';
export * from './rss';
export * from './stripe';
export * from './twitter';
export * from './weather';
export * from './youtube';
export * from './youtube-address';

/** Each kind under its own `type`: a kind registered under another name is a type error. */
const registry = <const Kinds extends { [Type in keyof Kinds]: { type: Type } }>(kinds: Kinds) => kinds;

/**
 * Every kind of source (docs/product.md §3), by its saved name, in the order the catalogue lists them. Adding a kind
 * adds its descriptor here (docs/ARCHITECTURE.md "Adding a source kind").
 */
export const sourceKinds = registry({
  WEATHER: weatherKind,
  HACKER_NEWS: hackerNewsKind,
  DATE: dateKind,
  RSS: rssKind,
  NEWSLETTERS: newslettersKind,
  REDDIT: redditKind,
  GOOGLE_CALENDAR: googleCalendarKind,
  TWITTER_TWEETS: twitterTweetsKind,
  TWITTER_TIMELINE: twitterTimelineKind,
  TWITTER_SEARCH: twitterSearchKind,
  TWITTER_LIST: twitterListKind,
  YOUTUBE: youtubeKind,
  PRODUCT_HUNT: productHuntKind,
  STRIPE: stripeKind,
});
