import { type DataSource, MAX_SOURCES, type Source, type Template } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { createQueryClient } from '#web/lib/query-client';
import { catalogueKeys } from '../api/catalogue-api';
import { templateKeys } from '../api/templates-api';
import { initialBuilderState, useBuilderStore } from '../store';
import { EntryStep } from './EntryStep';
import { TemplatesSection } from './TemplatesSection';
import { testCatalogue, testTemplate } from './test-support';

vi.mock('../store', async (importOriginal) => {
  const { withLiveSnapshot } = await import('./test-support');
  return withLiveSnapshot(await importOriginal());
});

/** Renders with the popular templates seeded: a list, an Error (the call failed) or undefined (loading). */
function render(
  ui: ReactNode,
  { templates, catalogue }: { templates?: Template[] | Error; catalogue?: DataSource[] } = {},
): string {
  const queryClient = createQueryClient();
  const key = templateKeys.category('popular');
  if (templates instanceof Error) {
    // A failed call as the page has it once its retries are over (not tried again on this render).
    queryClient.setQueryDefaults(key, { retryOnMount: false });
    queryClient.getQueryCache().build(queryClient, { queryKey: key }).setState({
      status: 'error',
      error: templates,
    });
  } else if (templates) {
    queryClient.setQueryData(key, templates);
  }
  if (catalogue) queryClient.setQueryData(catalogueKeys.all, catalogue);
  return renderToStaticMarkup(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}

const useButton = (html: string, name: string) =>
  html.match(new RegExp(`<button[^>]*aria-label="Use template ${name}"[^>]*>`))?.[0];

const weather = { type: 'WEATHER', name: 'Weather', showHeading: true } as Source;

beforeEach(() => {
  useBuilderStore.setState(initialBuilderState, true);
});

describe('templates of a category', () => {
  it('says what the server left out of a template, and nothing where it left out nothing', () => {
    const note = 'Left out: Product Hunt is not configured on this server.';
    const html = render(<TemplatesSection category="popular" full={false} />, {
      templates: [testTemplate(), testTemplate({ templateId: 'other', name: 'Launches', note })],
    });
    const [worldNews, launches] = html.split('<article').slice(1);
    expect(launches).toContain(`>${note}</p>`);
    expect(worldNews).not.toContain('Left out');
  });

  it('shows each template: its name, description, source icons and a Use template button', () => {
    const html = render(<TemplatesSection category="popular" full={false} />, {
      templates: [testTemplate(), testTemplate({ templateId: 'other', name: 'Morning briefing' })],
    });
    expect(html).toMatch(/<h3[^>]*>Templates<\/h3>/);
    expect(html).toMatch(/<article[^>]*aria-labelledby="([^"]+)"[^>]*><h4 id="\1"[^>]*>World news<\/h4>/);
    expect(html).toContain('Headlines from around the world, from several newsrooms.');
    expect(html).toContain('aria-label="Sources: 3"');
    expect(html).toContain('RSS feed');
    const button = useButton(html, 'World news');
    expect(button).toBeDefined();
    expect(button).not.toContain('disabled');
    expect(html).toContain('>Use template</button>');
    expect(useButton(html, 'Morning briefing')).toBeDefined();
  });

  it('shows placeholders while the templates load', () => {
    const html = render(<TemplatesSection category="popular" full={false} />);
    expect(html).toContain('aria-busy="true"');
    const loading = html.match(/<ul[^>]*aria-label="Loading"[^>]*>(.*?)<\/ul>/)?.[1] ?? '';
    expect(loading.match(/<li/g)?.length).toBeGreaterThan(0);
  });

  it('shows the message when the templates cannot be loaded', () => {
    const html = render(<TemplatesSection category="popular" full={false} />, {
      templates: new ApiError('Templates are resting', 500),
    });
    expect(html).toMatch(/<p[^>]*role="alert"[^>]*>Templates are resting<\/p>/);
  });

  it('shows nothing for a category without templates', () => {
    expect(render(<TemplatesSection category="popular" full={false} />, { templates: [] })).toBe('');
  });

  it('disables Use template at 20 sources', () => {
    const html = render(<TemplatesSection category="popular" full />, { templates: [testTemplate()] });
    expect(useButton(html, 'World news')).toContain('disabled');
  });
});

describe('entry step with templates', () => {
  it('lists the templates of the selected tab under its kinds', () => {
    const html = render(<EntryStep />, { templates: [testTemplate()], catalogue: testCatalogue() });
    const kinds = html.indexOf('>Popular</h3>');
    const templates = html.indexOf('>Templates</h3>');
    expect(kinds).toBeGreaterThan(-1);
    expect(templates).toBeGreaterThan(kinds);
    expect(useButton(html, 'World news')).not.toContain('disabled');
  });

  it('disables Use template like every other add at 20 sources', () => {
    const blocks = Array.from({ length: MAX_SOURCES }, (_, index) => ({ id: `b${index}`, source: weather }));
    useBuilderStore.setState({ blocks });
    const html = render(<EntryStep />, { templates: [testTemplate()], catalogue: testCatalogue() });
    expect(useButton(html, 'World news')).toContain('disabled');
  });
});
