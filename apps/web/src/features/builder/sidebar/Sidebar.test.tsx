import type { Source } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { catalogueKeys } from '../api/catalogue-api';
import { type BuilderState, initialBuilderState, useBuilderStore } from '../store';
import { Sidebar } from './Sidebar';
import { testCatalogue } from './test-support';

vi.mock('../store', async (importOriginal) => {
  const { withLiveSnapshot } = await import('./test-support');
  return withLiveSnapshot(await importOriginal());
});

// The kinds' panels are their own tests' business: here a probe shows what the sidebar gives them.
vi.mock('../sources/panels', async () => {
  const { createElement } = await import('react');
  const Probe = ({ type, step, initial }: { type: string; step: string; initial: unknown }) =>
    createElement('output', null, `panel ${type} at ${step}, initial ${JSON.stringify(initial)}`);
  return { SOURCE_PANELS: new Proxy({}, { get: () => Probe }) };
});

function renderSidebar(state: Partial<BuilderState>): string {
  useBuilderStore.setState({ ...initialBuilderState, ...state }, true);
  const queryClient = createQueryClient();
  queryClient.setQueryData(catalogueKeys.all, testCatalogue());
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <Sidebar />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const hasButton = (html: string, label: string) => html.includes(`aria-label="${label}"`);

const savedReddit = { type: 'REDDIT', name: 'Cats', sourceName: 'cats' } as Source;

beforeEach(() => {
  useBuilderStore.setState(initialBuilderState, true);
});

describe('builder sidebar (docs/product.md §2, §4)', () => {
  it('is a region named by its heading', () => {
    const html = renderSidebar({});
    const labelledBy = html.match(/<aside[^>]*aria-labelledby="([^"]+)"/)?.[1];
    expect(labelledBy).toBeDefined();
    expect(html).toContain(`<h2 id="${labelledBy}"`);
  });

  it('at entry: Select sources, its hint, the list of kinds, no back arrow', () => {
    const html = renderSidebar({ step: 'entry' });
    expect(html).toContain('>Select sources</h2>');
    expect(html).toContain('Choose what you want to add to your Digest');
    expect(html).toContain('It&#x27;s easy! Just select a source to add');
    expect(html).toContain('placeholder="Search sources"');
    expect(hasButton(html, 'Back')).toBe(false);
    expect(hasButton(html, 'Close sources')).toBe(true);
  });

  it('at selected and searching: Select sources, a back arrow, the kind panel', () => {
    const selected = renderSidebar({ step: 'selected', selectedType: 'RSS' });
    expect(selected).toContain('>Select sources</h2>');
    expect(selected).toContain('Search for something');
    expect(selected).toContain('panel RSS at selected, initial null');
    expect(hasButton(selected, 'Back')).toBe(true);
    const searching = renderSidebar({ step: 'searching', selectedType: 'RSS' });
    expect(searching).toContain('Choose an option from the results');
    expect(searching).not.toContain('placeholder="Search sources"');
  });

  it('at connect: Connect source', () => {
    const html = renderSidebar({ step: 'connect', selectedType: 'STRIPE' });
    expect(html).toContain('>Connect source</h2>');
    expect(html).toContain('Edit source settings and save it');
    expect(html).toContain('panel STRIPE at connect');
  });

  it('at edit: Edit source, with the saved settings of the block being edited', () => {
    const html = renderSidebar({
      step: 'edit',
      selectedType: 'REDDIT',
      blocks: [{ id: 'b1', source: savedReddit }],
      pending: { blockId: 'b1', source: { ...savedReddit, name: 'Dogs' } as Source },
    });
    expect(html).toContain('>Edit source</h2>');
    expect(html).toContain('Modify the settings for this source');
    expect(html).toContain('Edit source settings and save it');
    expect(html).toContain(
      'panel REDDIT at edit, initial {&quot;type&quot;:&quot;REDDIT&quot;,&quot;name&quot;:&quot;Cats&quot;',
    );
  });

  it('gives a new source no saved settings', () => {
    const html = renderSidebar({
      step: 'edit',
      selectedType: 'HACKER_NEWS',
      blocks: [{ id: 'b1', source: savedReddit }],
      pending: { blockId: null, source: null },
    });
    expect(html).toContain('panel HACKER_NEWS at edit, initial null');
  });

  it('in a guided sequence, says which source of how many and offers Skip', () => {
    const html = renderSidebar({
      step: 'selected',
      selectedType: 'RSS',
      guiding: true,
      guidedCount: 3,
      guided: ['WEATHER'],
    });
    expect(html).toContain('Source 2 of 3');
    expect(html).toMatch(/<button[^>]*>Skip<\/button>/);
    expect(renderSidebar({ step: 'selected', selectedType: 'RSS' })).not.toContain('Skip');
  });
});
