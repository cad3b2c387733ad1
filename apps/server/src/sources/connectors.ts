import type { Source, SourceType } from '@digest/contracts';
import type { SourceContentOf } from '@digest/contracts/content';
import type { Connector, SourceContext, SourcesDeps } from './connector';
import { dateConnector } from './date/date.connector';
import { googleCalendarConnector } from './google-calendar/google-calendar.connector';
import { hackerNewsConnector } from './hacker-news/hacker-news.connector';
import { newslettersConnector } from './newsletters/newsletters.connector';
import { productHuntConnector } from './product-hunt/product-hunt.connector';
import { redditConnector } from './reddit/reddit.connector';
import { rssConnector } from './rss/rss.connector';
import { stripeConnector } from './stripe/stripe.connector';
import { twitterConnectors } from './twitter/twitter.connector';
import { weatherConnector } from './weather/weather.connector';
import { youtubeConnector } from './youtube/youtube.connector';

export type Connectors = { [T in SourceType]: Connector<T> };

/** One connector per source kind, built once on the shared HTTP client, cache and accounts. */
export function createConnectors(deps: SourcesDeps): Connectors {
  const twitter = twitterConnectors(deps);
  return {
    WEATHER: weatherConnector(deps),
    HACKER_NEWS: hackerNewsConnector(deps),
    DATE: dateConnector(deps),
    RSS: rssConnector(deps),
    NEWSLETTERS: newslettersConnector(deps),
    REDDIT: redditConnector(deps),
    GOOGLE_CALENDAR: googleCalendarConnector(deps),
    TWITTER_TWEETS: twitter.tweets,
    TWITTER_TIMELINE: twitter.timeline,
    TWITTER_SEARCH: twitter.search,
    TWITTER_LIST: twitter.list,
    YOUTUBE: youtubeConnector(deps),
    PRODUCT_HUNT: productHuntConnector(deps),
    STRIPE: stripeConnector(deps),
  };
}

/** The live content of one saved source, by its kind's connector. */
export function fetchSourceContent<T extends SourceType>(
  connectors: Connectors,
  source: Extract<Source, { type: T }>,
  context: SourceContext,
): Promise<SourceContentOf<T>> {
  const connector = connectors[source.type as T] as Connector<T>;
  return connector.fetchContent(source, context);
}
