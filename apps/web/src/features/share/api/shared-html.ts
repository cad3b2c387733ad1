import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { publicDigestPath } from '../lib/share-link';

/**
 * `GET /api/digests/share/{digestId}[/{buildNumber}]`: the rendered HTML of an issue, public, no login
 * (docs/design.md §5). The text is read for its <title> and to tell a missing issue apart; the page itself is
 * shown from the same address in a sandboxed frame.
 */
export function fetchSharedHtml(digestId: string, buildNumber: number | null, signal?: AbortSignal) {
  return api.get<string>(publicDigestPath(digestId, buildNumber), {
    auth: false,
    signal,
    headers: { Accept: 'text/html' },
  });
}

export function useSharedHtml(digestId: string, buildNumber: number | null, enabled = true) {
  return useQuery({
    queryKey: ['shared-html', digestId, buildNumber],
    queryFn: ({ signal }) => fetchSharedHtml(digestId, buildNumber, signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** docs/product.md §2: the tab title comes from the issue's own <title> element. */
export const DEFAULT_SHARED_TITLE = 'Shared Digest';

/**
 * The text of the first <title> element. Only that element is parsed (for its character
 * references): parsing the whole issue would check its inline styles against the app's CSP.
 */
export function titleOfHtml(html: string): string {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!match) return DEFAULT_SHARED_TITLE;
  const doc = new DOMParser().parseFromString(`<title>${match[1]}</title>`, 'text/html');
  return doc.title.replace(/\s+/g, ' ').trim() || DEFAULT_SHARED_TITLE;
}
