import {
  type DataSource,
  SOURCE_CATALOGUE_PLACES,
  SOURCE_LABELS,
  SOURCE_TYPES,
  type SourceType,
  sourceSchema,
  type Template,
} from '@digest/contracts';
import type { BuilderState } from '../store';

/** The catalogue as a server with every credential answers it (SOURCE_TYPES order). */
export function testCatalogue(
  overrides: Partial<Record<SourceType, Partial<DataSource>>> = {},
): DataSource[] {
  return SOURCE_TYPES.map((type) => ({
    type,
    name: SOURCE_LABELS[type],
    path: null,
    ...SOURCE_CATALOGUE_PLACES[type],
    accountProvider: null,
    configured: true,
    ...overrides[type],
  }));
}

/** A template as the server answers it: three sources in the stored shape (every setting filled). */
export function testTemplate(overrides: Partial<Template> = {}): Template {
  return {
    templateId: 'news-world',
    name: 'World news',
    description: 'Headlines from around the world, from several newsrooms.',
    sources: [
      sourceSchema.parse({ type: 'DATE' }),
      sourceSchema.parse({
        type: 'RSS',
        sourceName: 'BBC News – World',
        feedLink: 'https://feeds.bbci.co.uk/news/world/rss.xml',
      }),
      sourceSchema.parse({ type: 'REDDIT', sourceName: 'worldnews' }),
    ],
    note: null,
    ...overrides,
  };
}

type StoreModule = typeof import('../store');

/**
 * For `vi.mock('../store', …)`: `renderToStaticMarkup` reads a zustand store through its server
 * snapshot, which is the store's initial state; the mocked hook reads the state the test has set.
 */
export function withLiveSnapshot(store: StoreModule): StoreModule {
  const live = store.useBuilderStore;
  const useBuilderStore = Object.assign(
    <T>(selector: (state: BuilderState) => T): T => selector(live.getState()),
    live,
  ) as StoreModule['useBuilderStore'];
  return { ...store, useBuilderStore };
}
