import type { Digest } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { digestKeys, TEST_DIGEST_ID, testDigest } from '#web/features/digests';
import { createQueryClient } from '#web/lib/query-client';
import { DigestDetailPage } from './DigestDetailPage';

const DIGEST_ID = TEST_DIGEST_ID;
const digest = (overrides: Partial<Digest> = {}) => testDigest(2, overrides);

/** The page's first render with the digest already loaded (no DOM here: markup only). */
function renderDetail(data: Digest): string {
  const queryClient = createQueryClient();
  queryClient.setQueryData(digestKeys.detail(DIGEST_ID), data);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[`/digests/${DIGEST_ID}`]}>
        <Routes>
          <Route path="/digests/:digestId" element={<DigestDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  ).replace(/\s/g, ' ');
}

/** The opening tag of the button labelled `label` (by aria-label or by its text). */
function buttonTag(html: string, label: string): string | undefined {
  const buttons = html.match(/<button[^>]*>.*?<\/button>/g) ?? [];
  const button = buttons.find(
    (b) => b.includes(`aria-label="${label}"`) || b.replace(/<[^>]+>/g, '') === label,
  );
  return button?.match(/^<button[^>]*>/)?.[0];
}

describe('Digest detail (docs/product.md §2)', () => {
  it('says why the latest scheduled issue was not sent, and nothing when it was', () => {
    const empty = renderDetail(
      digest({ lastRun: { slot: '2026-11-22T12:00:00.000Z', status: 'empty', reason: 'Nothing to send.' } }),
    );
    expect(empty).toContain('The issue of Sun, Nov 22, 7:00 am was not sent: Nothing to send.');
    const built = renderDetail(
      digest({ lastRun: { slot: '2026-11-22T12:00:00.000Z', status: 'built', reason: null } }),
    );
    expect(built).not.toContain('was not sent');
  });

  it("has a 'Send latest digest' button, ready to use", () => {
    const tag = buttonTag(renderDetail(digest()), 'Send latest digest');
    expect(tag).toBeDefined();
    expect(tag).not.toContain('disabled');
    expect(tag).not.toContain('aria-busy');
  });

  it('selects the newest issue, with the pager disabled at that end', () => {
    const html = renderDetail(digest());
    expect(html).toContain('Issue 2');
    expect(buttonTag(html, 'Next issue')).toContain('disabled');
    expect(buttonTag(html, 'Previous issue')).not.toContain('disabled');
  });

  it("shows when the next issue goes out, in the owner's zone", () => {
    const html = renderDetail(digest());
    expect(html).toMatch(/Next issue Tue, Nov 24, 7:00 am/);
  });

  it("reads 'Paused' while the digest is paused", () => {
    const html = renderDetail(digest({ active: false, nextRunAt: null }));
    expect(html).toContain('>Paused</p>');
    expect(html).not.toContain('Next issue Tue');
  });

  it('lists the next five sends in the owner’s zone while active, and none while paused', () => {
    const html = renderDetail(digest({ scheduleType: 'weekly', weekDay: 2, time: '07:00' }));
    expect(html).toMatch(/<h2 id="[^"]+"[^>]*>Next sends/);
    const sends = [...html.matchAll(/<time dateTime="[^"]+"[^>]*>([^<]+)<\/time>/g)].map(([, when]) => when);
    expect(sends).toHaveLength(5);
    for (const when of sends) expect(when).toMatch(/^Tue, [A-Z][a-z]{2} \d{1,2}, 7:00 am$/);
    expect(renderDetail(digest({ active: false, nextRunAt: null }))).not.toContain('Next sends');
  });
});
