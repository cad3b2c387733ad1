import type { User } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { catalogueKeys, testCatalogue } from '#web/features/builder';
import { createQueryClient } from '#web/lib/query-client';
import { meQueryKey } from '#web/lib/session/use-me';
import { CreateDigestPage } from './CreateDigestPage';

const user = {
  userId: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  username: 'ada',
} as User;

function renderWelcome(catalogue = testCatalogue(), url = '/createDigest'): string {
  const queryClient = createQueryClient();
  queryClient.setQueryData(meQueryKey, user);
  queryClient.setQueryData(catalogueKeys.all, catalogue);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <CreateDigestPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The text of each checkbox label, in order. */
const tileNames = (html: string) =>
  [...html.matchAll(/<input[^>]*type="checkbox"[^>]*\/><label[^>]*>(.*?)<\/label>/g)].map((match) =>
    (match[1] ?? '').replace(/<span class="visually-hidden">[^<]*<\/span>/g, '').replace(/<[^>]+>/g, ''),
  );

describe('welcome page for a complete profile (docs/product.md §2 guided sequence)', () => {
  it('offers the kinds a guided sequence can open, popular ones first', () => {
    const names = tileNames(renderWelcome());
    expect(names.slice(0, 3)).toEqual(['Weather', 'Hacker News', 'RSS']);
    expect(names).toContain('Today&#x27;s Date');
    expect(names).not.toContain('Twitter timeline');
    expect(names.indexOf('Stripe')).toBeGreaterThan(names.indexOf('Product Hunt'));
  });

  it('cannot pick a kind this server cannot serve, and says why', () => {
    const reason = 'Stripe is not configured on this server';
    const html = renderWelcome(testCatalogue({ STRIPE: { configured: false, reason } }));
    const stripe = html.match(
      /<input[^>]*\/><label[^>]*>(?:(?!<\/label>).)*Stripe(?:(?!<\/label>).)*<\/label>/,
    )?.[0];
    expect(stripe).toMatch(/^<input[^>]*disabled/);
    expect(stripe).toContain(reason);
  });

  it("has a 'Create digest' button", () => {
    expect(renderWelcome()).toMatch(/<button[^>]*>Create digest<\/button>/);
  });
});

describe('kinds chosen before signing up (docs/product.md §2 guided sequence)', () => {
  it('send a complete profile on to the builder instead of the welcome page', () => {
    expect(renderWelcome(testCatalogue(), '/createDigest?sources=todaysDate,hackerNews')).toBe('');
  });

  it('are ignored when none is known: the welcome page shows', () => {
    const html = renderWelcome(testCatalogue(), '/createDigest?sources=nope,toString');
    expect(html).toContain('Welcome, Ada Lovelace!');
  });
});
