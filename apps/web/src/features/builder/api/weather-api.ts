import type { WeatherLocation } from '@digest/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export const weatherKeys = {
  locations: (search: string) => ['builder', 'weather', 'locations', search] as const,
};

/** `GET /data-sources/weather/locations?search=`: places named like `search` ('' searches nothing). */
export function useWeatherLocations(search: string) {
  return useQuery({
    queryKey: weatherKeys.locations(search),
    queryFn: ({ signal }) =>
      api
        .get<{ locations: WeatherLocation[] }>(
          `/data-sources/weather/locations?${new URLSearchParams({ search })}`,
          { signal },
        )
        .then((body) => body.locations),
    enabled: search !== '',
    staleTime: 60 * 60_000,
  });
}
