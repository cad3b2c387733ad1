import type { SourceType } from '@digest/contracts';
import type { ComponentType } from 'react';
import { DatePanel } from './date/DatePanel';
import { CalendarPanel } from './google-calendar/CalendarPanel';
import { HackerNewsPanel } from './hacker-news/HackerNewsPanel';
import { NewslettersPanel } from './newsletters/NewslettersPanel';
import type { SourcePanelProps } from './panel';
import { ProductHuntPanel } from './product-hunt/ProductHuntPanel';
import { RedditPanel } from './reddit/RedditPanel';
import { RssPanel } from './rss/RssPanel';
import { StripePanel } from './stripe/StripePanel';
import { TwitterPanel } from './twitter/TwitterPanel';
import { WeatherPanel } from './weather/WeatherPanel';
import { YoutubePanel } from './youtube/YoutubePanel';

/** The sidebar panel of each kind (the four Twitter kinds share one, which reads `type`). */
export const SOURCE_PANELS: { [T in SourceType]: ComponentType<SourcePanelProps<T>> } = {
  WEATHER: WeatherPanel,
  HACKER_NEWS: HackerNewsPanel,
  DATE: DatePanel,
  RSS: RssPanel,
  NEWSLETTERS: NewslettersPanel,
  REDDIT: RedditPanel,
  GOOGLE_CALENDAR: CalendarPanel,
  TWITTER_TWEETS: TwitterPanel as ComponentType<SourcePanelProps<'TWITTER_TWEETS'>>,
  TWITTER_TIMELINE: TwitterPanel as ComponentType<SourcePanelProps<'TWITTER_TIMELINE'>>,
  TWITTER_SEARCH: TwitterPanel as ComponentType<SourcePanelProps<'TWITTER_SEARCH'>>,
  TWITTER_LIST: TwitterPanel as ComponentType<SourcePanelProps<'TWITTER_LIST'>>,
  YOUTUBE: YoutubePanel,
  PRODUCT_HUNT: ProductHuntPanel,
  STRIPE: StripePanel,
};
