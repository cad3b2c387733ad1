import { type DataSource, MAX_SOURCES, type Source } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { catalogueKeys } from '../api/catalogue-api';
import { initialBuilderState, useBuilderStore } from '../store';
import { EntryStep } from './EntryStep';
import { testCatalogue } from './test-support';

/** The entry step's first render; `catalogue` undefined: still loading. */
function renderEntry(catalogue?: DataSource[]): string {
  const queryClient = createQueryClient();
  if (catalogue) queryClient.setQueryData(catalogueKeys.all, catalogue);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <EntryStep />
    </QueryClientProvider>,
  );
}

const kindButtons = (html: string) =>
  html.match(/<button type="button"[^>]*>(?:(?!<\/button>).)*<\/button>/g) ?? [];
const kindButton = (html: string, name: string) => kindButtons(html).find((b) => b.includes(`>${name}<`));

const weather: Source = { type: 'WEATHER', name: 'Weather', showHeading: true } as Source;

vi.mock('../store', async (importOriginal) => {
  const { withLiveSnapshot } = await import('./test-support');
  return withLiveSnapshot(await importOriginal());
});

beforeEach(() => {
  useBuilderStore.setState(initialBuilderState, true);
});

describe('entry step (docs/product.md §2)', () => {
  it("has a search box with the placeholder 'Search sources'", () => {
    expect(renderEntry(testCatalogue())).toMatch(/<input[^>]*type="search"[^>]*placeholder="Search sources"/);
  });

  it('shows 12 placeholders while the catalogue loads', () => {
    const html = renderEntry();
    const loading = html.match(/<ul[^>]*aria-label="Loading"[^>]*>(.*?)<\/ul>/)?.[1] ?? '';
    expect(loading.match(/<li/g)).toHaveLength(12);
  });

  it('has the category tabs, Popular selected', () => {
    const html = renderEntry(testCatalogue());
    const tabs = [...html.matchAll(/<button[^>]*role="tab"[^>]*>([^<]*)<\/button>/g)];
    expect(tabs.map((tab) => tab[1])).toEqual([
      'Popular',
      'Everyday',
      'Socials',
      'Finance',
      'News',
      'Hand-crafted',
      'Tech',
    ]);
    expect(tabs[0]?.[0]).toContain('aria-selected="true"');
  });

  it('shows the popular kinds 4 to a view (desktop), with previous / next controls', () => {
    const html = renderEntry(testCatalogue());
    const names = ['Weather', 'Hacker News', 'RSS', 'Reddit'];
    for (const name of names) expect(kindButton(html, name)).toBeDefined();
    expect(kindButton(html, 'Google Calendar')).toBeUndefined();
    expect(html).toContain('1 of 2');
    expect(kindButtons(html).find((b) => b.includes('aria-label="Previous sources"'))).toContain('disabled');
    expect(kindButtons(html).find((b) => b.includes('aria-label="Next sources"'))).not.toContain('disabled');
  });

  it('disables a kind this server cannot serve, and says why', () => {
    const reason = 'Weather is not configured on this server';
    const html = renderEntry(testCatalogue({ WEATHER: { configured: false, reason } }));
    expect(kindButton(html, 'Weather')).toContain('disabled');
    expect(kindButton(html, 'Weather')).toContain(reason);
    expect(kindButton(html, 'Reddit')).not.toContain('disabled');
  });

  it('disables every kind at 20 sources, with a note', () => {
    const blocks = Array.from({ length: MAX_SOURCES }, (_, index) => ({ id: `b${index}`, source: weather }));
    useBuilderStore.setState({ blocks });
    const html = renderEntry(testCatalogue());
    expect(html).toContain('A Digest can have at most 20 sources');
    for (const name of ['Weather', 'Hacker News', 'RSS', 'Reddit']) {
      expect(kindButton(html, name)).toContain('disabled');
    }
  });

  it('lets kinds be added below 20 sources', () => {
    const blocks = Array.from({ length: MAX_SOURCES - 1 }, (_, index) => ({
      id: `b${index}`,
      source: weather,
    }));
    useBuilderStore.setState({ blocks });
    const html = renderEntry(testCatalogue());
    expect(html).not.toContain('at most 20 sources');
    expect(kindButton(html, 'Weather')).not.toContain('disabled');
  });
});
