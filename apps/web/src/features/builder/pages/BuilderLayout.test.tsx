import type { Source, User } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { meQueryKey } from '#web/lib/session/use-me';
import { initialBuilderState, useBuilderStore } from '../store';
import { BuilderLayout } from './BuilderLayout';

vi.mock('../store', async (importOriginal) => {
  const { withLiveSnapshot } = await import('../sidebar/test-support');
  return withLiveSnapshot(await importOriginal());
});

const user = { userId: 'u1', email: 'ada@example.com', fullName: 'Ada', timezone: null } as User;
const hn = { type: 'HACKER_NEWS', name: 'Hacker News' } as Source;

function renderHeader(sources: number): string {
  const blocks = Array.from({ length: sources }, (_, index) => ({ id: `b${index}`, source: hn }));
  useBuilderStore.setState({ ...initialBuilderState, blocks }, true);
  const queryClient = createQueryClient();
  queryClient.setQueryData(meQueryKey, user);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <BuilderLayout />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const completeTag = (html: string) => html.match(/<button[^>]*>Complete<\/button>/)?.[0] ?? '';

describe('builder header (docs/product.md §2: a progress indicator and a Complete button)', () => {
  it('disables Complete with no sources and with fewer than 3', () => {
    expect(completeTag(renderHeader(0))).toContain('disabled');
    const two = renderHeader(2);
    expect(completeTag(two)).toContain('disabled');
    expect(two).toContain('Add at least 3 sources to your Digest');
    expect(two).toContain('2 of 3 sources');
  });

  it('enables Complete at 3 sources', () => {
    const html = renderHeader(3);
    expect(completeTag(html)).not.toBe('');
    expect(completeTag(html)).not.toContain('disabled');
    expect(html).toContain('Your Digest is ready to complete');
  });

  it('keeps the logo and a way back to Digests', () => {
    const html = renderHeader(0);
    expect(html.match(/href="\/digests"/g)).toHaveLength(2);
    expect(html).toContain('Back to Digests');
  });
});
