import { type DataSource, dataSourcesResponseSchema } from '@digest/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export const catalogueKeys = {
  all: ['data-sources', 'catalogue'] as const,
};

/** `GET /api/data-sources`: every kind the builder can add, and whether this server can serve it. */
export function fetchCatalogue(signal?: AbortSignal): Promise<DataSource[]> {
  return api
    .get('/data-sources', { signal, schema: dataSourcesResponseSchema })
    .then((body) => body.dataSources);
}

/** The catalogue follows the server's configuration, which does not change while the app runs. */
export function useCatalogue() {
  return useQuery({
    queryKey: catalogueKeys.all,
    queryFn: ({ signal }) => fetchCatalogue(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
