import * as z from 'zod/mini';
import { ACCOUNT_PROVIDERS, SOURCE_CATEGORIES } from './source-kinds/source-kind';
import { SOURCE_TYPES } from './sources';

/**
 * The source catalogue (docs/product.md §7 `GET /data-sources`): every kind the builder can add, where its data
 * comes from, and whether this server can serve it (a kind whose provider credentials are missing is
 * listed with `configured: false` and the reason, so the UI can say so instead of failing later).
 */

export {
  ACCOUNT_PROVIDERS,
  type AccountProviderName,
  SOURCE_CATEGORIES,
  type SourceCategory,
} from './source-kinds/source-kind';

export const dataSourceSchema = z.object({
  type: z.enum(SOURCE_TYPES),
  /** SOURCE_LABELS: the name a block of this kind shows by default. */
  name: z.string(),
  /** `/api/data-sources/{path}` (SOURCE_DATA_PATHS); null for kinds without data calls (DATE). */
  path: z.nullable(z.string()),
  category: z.enum(SOURCE_CATEGORIES),
  /** Shown in the builder's default 'Popular' view. */
  popular: z.boolean(),
  /** The provider whose connected account the source needs (ACCOUNT_SOURCE_TYPES), or null. */
  accountProvider: z.nullable(z.enum(ACCOUNT_PROVIDERS)),
  /** False when this server lacks the credentials the kind needs; `reason` then says which. */
  configured: z.boolean(),
  reason: z.optional(z.string()),
  /** Kinds whose search needs extra credentials (YouTube channel search needs a Data API key). */
  searchConfigured: z.optional(z.boolean()),
});
export type DataSource = z.output<typeof dataSourceSchema>;

/** `GET /api/data-sources`: one entry per kind, in SOURCE_TYPES order. */
export const dataSourcesResponseSchema = z.object({ dataSources: z.array(dataSourceSchema) });
export type DataSourcesResponse = z.output<typeof dataSourcesResponseSchema>;
