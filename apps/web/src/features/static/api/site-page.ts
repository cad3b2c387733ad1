import { type SitePage, sitePageSchema } from '@digest/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/api-client';

/** `GET /api/site/pages/{page}`: the document's HTML, reduced by the server to its sanitiser's allow-list. */
export function useSitePage(page: SitePage, enabled: boolean) {
  return useQuery({
    queryKey: ['site', 'pages', page],
    queryFn: ({ signal }) =>
      apiRequest(`/site/pages/${page}`, { auth: false, signal, schema: sitePageSchema }),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}
