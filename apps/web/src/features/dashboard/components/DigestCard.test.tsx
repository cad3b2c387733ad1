import type { DigestSummary } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { testDigestSummary } from '#web/features/digests';
import { createQueryClient } from '#web/lib/query-client';
import { DigestCard } from './DigestCard';

const summary = (overrides: Partial<DigestSummary>) =>
  testDigestSummary({ scheduleType: 'weekly', weekDay: 2, ...overrides });

function renderCard(digest: DigestSummary): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <DigestCard digest={digest} />
      </MemoryRouter>
    </QueryClientProvider>,
  ).replace(/\s/g, ' ');
}

describe('digest card (docs/product.md §2 Digests page)', () => {
  it("shows when the next issue goes out, in the owner's zone", () => {
    expect(renderCard(summary({}))).toContain('<span>Next issue Tue, Nov 24, 7:00 am');
  });

  it("marks the digest 'Private' until its public link is on, then 'Public'", () => {
    expect(renderCard(summary({}))).toContain('<span>Private</span>');
    const shareUrl = 'https://digest.example/digests/share/k3Jx9_Qm-2VbY7wTzR4nLp0aHs8dEfGiUoCqWjXy1Mc';
    expect(renderCard(summary({ visibility: 'public', shareUrl }))).toContain('<span>Public</span>');
  });

  it("reads 'Paused' while the digest is paused", () => {
    const html = renderCard(summary({ active: false, nextRunAt: null }));
    expect(html).toContain('<span>Paused</span>');
    expect(html).not.toContain('Next issue');
  });
});
