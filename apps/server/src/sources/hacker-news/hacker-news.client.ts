import { z } from 'zod';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';

const PROVIDER = 'Hacker News';

/** One story as Algolia's HN Search API gives it (title and url are missing on some old items). */
const hitSchema = z.object({
  objectID: z.string(),
  title: z.string().nullish(),
  url: z.string().nullish(),
  created_at: z.string(),
  created_at_i: z.number(),
  num_comments: z.number().nullish(),
  points: z.number().nullish(),
  _tags: z.array(z.string()).default([]),
});
export type HackerNewsHit = z.infer<typeof hitSchema>;

const searchSchema = z.object({ hits: z.array(hitSchema) });

export interface HackerNewsSearch {
  /** `search_by_date` (newest first) instead of `search` (most popular first). */
  byDate: boolean;
  /** Algolia tags: `front_page`, `story`, `ask_hn`, `show_hn`. */
  tags: string;
  hitsPerPage: number;
  /** Only stories posted after this instant (Unix seconds). */
  since?: number;
  /** Only stories posted at or before this instant (Unix seconds). */
  until?: number;
}

/** Hacker News through its Algolia search API (no key). */
export function hackerNewsClient(deps: { http: ProviderHttp; providers: ProviderConfig }) {
  return {
    async search(search: HackerNewsSearch): Promise<HackerNewsHit[]> {
      const url = new URL(`${deps.providers.baseUrls.hn}/v1/${search.byDate ? 'search_by_date' : 'search'}`);
      url.searchParams.set('tags', search.tags);
      url.searchParams.set('hitsPerPage', String(search.hitsPerPage));
      const filters = [
        ...(search.since === undefined ? [] : [`created_at_i>${search.since}`]),
        ...(search.until === undefined ? [] : [`created_at_i<=${search.until}`]),
      ];
      if (filters.length > 0) url.searchParams.set('numericFilters', filters.join(','));
      // The front page moves within minutes; five of them is fresh enough for a digest and its preview.
      const answer = await deps.http.json(
        { provider: PROVIDER, url, cache: { minSeconds: 60, defaultSeconds: 300, maxSeconds: 900 } },
        searchSchema,
      );
      return answer.hits;
    },
  };
}
