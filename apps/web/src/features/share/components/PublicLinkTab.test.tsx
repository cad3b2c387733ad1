import type { Digest } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { digestKeys, TEST_DIGEST_ID, testDigest } from '#web/features/digests';
import { createQueryClient } from '#web/lib/query-client';
import { PublicLinkTab } from './PublicLinkTab';

const SHARE_URL = 'https://digest.example/digests/share/k3Jx9_Qm-2VbY7wTzR4nLp0aHs8dEfGiUoCqWjXy1Mc';

function renderTab(digest: Digest): string {
  const client = createQueryClient();
  client.setQueryData(digestKeys.detail(TEST_DIGEST_ID), digest);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <PublicLinkTab digestId={TEST_DIGEST_ID} />
    </QueryClientProvider>,
  ).replace(/\s+/g, ' ');
}

describe('the share dialog’s Public tab (docs/design.md §10 private by default)', () => {
  it('says a private digest is private, what a public page would show, and offers to turn the link on, with no link to copy', () => {
    const html = renderTab(testDigest(2));
    expect(html).toContain('Public link: <strong>Off</strong>');
    expect(html).toContain('This Digest is private');
    expect(html).toContain(
      'never appear on the public page: it shows their title and &quot;Private&quot; instead',
    );
    expect(html).toContain('Turn on the public link');
    expect(html).not.toContain('Copy link');
    expect(html).not.toContain('/digests/share/');
  });

  it('shows a public digest’s link, from the server, with Copy link and a way to turn it off', () => {
    const html = renderTab(testDigest(2, { visibility: 'public', shareUrl: SHARE_URL }));
    expect(html).toContain('Public link: <strong');
    expect(html).toContain('>On</strong>');
    expect(html).toContain('Anyone with the link can read every issue of this Digest');
    expect(html).toContain(`value="${SHARE_URL}"`);
    expect(html).toContain('Copy link');
    expect(html).toContain('Turn off the public link');
    expect(html).not.toContain(TEST_DIGEST_ID);
  });
});
