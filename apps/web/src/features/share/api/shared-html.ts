import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { apiPathOf } from '../lib/share-link';

/**
 * The rendered HTML of an issue from its API address: a public page's (`/api/digests/share/{shareToken}…`,
 * no login) or the owner's signed `htmlLink` (docs/design.md §5). The text is read for its <title> and to
 * tell a missing issue apart; the page itself is shown from the same address in a sandboxed frame.
 */
export function fetchIssueHtml(src: string, signal?: AbortSignal) {
  return api.get<string>(apiPathOf(src), {
    auth: false,
    signal,
    headers: { Accept: 'text/html' },
  });
}

export function useIssueHtml(src: string, enabled = true) {
  return useQuery({
    queryKey: ['issue-html', src],
    queryFn: ({ signal }) => fetchIssueHtml(src, signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** docs/product.md §2: the tab title comes from the issue's own <title> element. */
export const DEFAULT_SHARED_TITLE = 'Shared Digest';

/**
 * The text of the issue's first <title> element. Only that element is parsed (for its character
 * references): parsing the whole issue would check its inline styles against the app's CSP.
 */
export function titleOfHtml(html: string): string {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!match) return DEFAULT_SHARED_TITLE;
  const doc = new DOMParser().parseFromString(`<title>${match[1]}</title>`, 'text/html');
  return doc.title.replace(/\s+/g, ' ').trim() || DEFAULT_SHARED_TITLE;
}
