import { z } from 'zod';
import { SOURCE_TYPES, type SourceType } from './sources';

/**
 * The source catalogue (SPEC §7 `GET /data-sources`): every kind the builder can add, where its data
 * comes from, and whether this server can serve it (a kind whose provider credentials are missing is
 * listed with `configured: false` and the reason, so the UI can say so instead of failing later).
 */

/** Builder tabs (SPEC §2 "category carousel/tabs"); `popular` is a flag, not a tab of its own. */
export const SOURCE_CATEGORIES = ['everyday', 'news', 'socials', 'tech', 'finance'] as const;
export type SourceCategory = (typeof SOURCE_CATEGORIES)[number];

/** Providers whose account a user connects before adding the source (SPEC §3 connected account token). */
export const ACCOUNT_PROVIDERS = ['GOOGLE', 'TWITTER', 'STRIPE'] as const;
export type AccountProviderName = (typeof ACCOUNT_PROVIDERS)[number];

export const dataSourceSchema = z.object({
  type: z.enum(SOURCE_TYPES),
  /** SOURCE_LABELS: the name a block of this kind shows by default. */
  name: z.string(),
  /** `/api/data-sources/{path}` (SOURCE_DATA_PATHS); null for kinds without data calls (DATE). */
  path: z.string().nullable(),
  category: z.enum(SOURCE_CATEGORIES),
  /** Shown in the builder's default 'Popular' view. */
  popular: z.boolean(),
  /** The provider whose connected account the source needs (ACCOUNT_SOURCE_TYPES), or null. */
  accountProvider: z.enum(ACCOUNT_PROVIDERS).nullable(),
  /** False when this server lacks the credentials the kind needs; `reason` then says which. */
  configured: z.boolean(),
  reason: z.string().optional(),
  /** Kinds whose search needs extra credentials (YouTube channel search needs a Data API key). */
  searchConfigured: z.boolean().optional(),
});
export type DataSource = z.output<typeof dataSourceSchema>;

/** `GET /api/data-sources`: one entry per kind, in SOURCE_TYPES order. */
export const dataSourcesResponseSchema = z.object({ dataSources: z.array(dataSourceSchema) });
export type DataSourcesResponse = z.output<typeof dataSourcesResponseSchema>;

/** Where each kind sits in the builder. */
export const SOURCE_CATALOGUE_PLACES: Record<SourceType, { category: SourceCategory; popular: boolean }> = {
  WEATHER: { category: 'everyday', popular: true },
  HACKER_NEWS: { category: 'tech', popular: true },
  DATE: { category: 'everyday', popular: false },
  RSS: { category: 'news', popular: true },
  REDDIT: { category: 'socials', popular: true },
  GOOGLE_CALENDAR: { category: 'everyday', popular: true },
  TWITTER_TWEETS: { category: 'socials', popular: true },
  TWITTER_TIMELINE: { category: 'socials', popular: false },
  TWITTER_SEARCH: { category: 'socials', popular: false },
  TWITTER_LIST: { category: 'socials', popular: false },
  YOUTUBE: { category: 'socials', popular: true },
  PRODUCT_HUNT: { category: 'tech', popular: true },
  STRIPE: { category: 'finance', popular: false },
};
