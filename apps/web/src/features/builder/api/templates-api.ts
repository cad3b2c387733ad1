import { type Template, type TemplateCategory, templateListResponseSchema } from '@digest/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export const templateKeys = {
  category: (category: TemplateCategory) => ['builder', 'templates', category] as const,
};

/** `GET /api/digests/web/{category}`: the digest templates of a category (docs/product.md §7). */
export function fetchTemplates(category: TemplateCategory, signal?: AbortSignal): Promise<Template[]> {
  return api
    .get(`/digests/web/${category}`, { signal, schema: templateListResponseSchema })
    .then((body) => body.templates);
}

/** Templates are written into the server: they change only with a new release, so they are kept an hour. */
export function useTemplates(category: TemplateCategory) {
  return useQuery({
    queryKey: templateKeys.category(category),
    queryFn: ({ signal }) => fetchTemplates(category, signal),
    staleTime: 60 * 60_000,
  });
}
