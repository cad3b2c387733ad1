import { z } from 'zod';
import type { ProviderConfig } from '#server/sources/provider-config';
import type { ProviderHttp } from '#server/sources/provider-http';

const FORECAST = 'Open-Meteo';
const GEOCODING = 'Open-Meteo geocoding';

/** Hourly values may be null past the model's horizon. */
const series = z.array(z.number().nullable());

const forecastSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  hourly: z.object({
    time: z.array(z.string()),
    temperature_2m: series,
    precipitation_probability: series,
    weather_code: series,
  }),
  daily: z.object({
    time: z.array(z.string()),
    weather_code: series,
    temperature_2m_max: series,
    temperature_2m_min: series,
    precipitation_probability_max: series,
  }),
});
export type OpenMeteoForecast = z.infer<typeof forecastSchema>;

/** The real API leaves `results` out when nothing matches; `admin1` is missing for city states. */
const searchSchema = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        admin1: z.string().optional(),
        country: z.string().default(''),
        latitude: z.number(),
        longitude: z.number(),
      }),
    )
    .default([]),
});
export type OpenMeteoPlace = z.infer<typeof searchSchema>['results'][number];

/** Places the geocoding API gives per search (its default; the builder shows them as a list). */
const PLACES_PER_SEARCH = 10;

/** Open-Meteo's forecast and geocoding APIs (no key). Temperatures come in °C, times in the place's zone. */
export function openMeteoClient(deps: { http: ProviderHttp; providers: ProviderConfig }) {
  const { openMeteo, openMeteoGeocoding } = deps.providers.baseUrls;
  return {
    /** `days` of daily values and the hourly values of the same days, starting today in the place's zone. */
    forecast(place: { latitude: number; longitude: number }, days: number): Promise<OpenMeteoForecast> {
      const url = new URL(`${openMeteo}/v1/forecast`);
      url.search = new URLSearchParams({
        latitude: String(place.latitude),
        longitude: String(place.longitude),
        hourly: 'temperature_2m,precipitation_probability,weather_code',
        daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max',
        timezone: 'auto',
        forecast_days: String(days),
      }).toString();
      // Open-Meteo updates its models hourly; a digest built twice within 30 minutes may share one answer.
      return deps.http.json(
        { provider: FORECAST, url, cache: { minSeconds: 60, defaultSeconds: 1800, maxSeconds: 3600 } },
        forecastSchema,
      );
    },

    async searchPlaces(name: string): Promise<OpenMeteoPlace[]> {
      const url = new URL(`${openMeteoGeocoding}/v1/search`);
      url.search = new URLSearchParams({
        name,
        count: String(PLACES_PER_SEARCH),
        language: 'en',
        format: 'json',
      }).toString();
      const answer = await deps.http.json(
        { provider: GEOCODING, url, cache: { defaultSeconds: 86_400, maxSeconds: 86_400 } },
        searchSchema,
      );
      return answer.results;
    },
  };
}
