import { FORECAST_INTERVALS, TEMPERATURE_TYPES } from '@digest/contracts';
import type { WeatherContent, WeatherForecast, WeatherLocation } from '@digest/contracts/content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '#server/platform/http/auth';
import { openMeteoClient } from '#server/sources/weather/weather.client';
import { weatherContent } from '#server/sources/weather/weather.connector';
import type { DataSourceRoutesDeps } from '../data-sources.deps';

/** docs/product.md §5: a search phrase needs more than 2 characters. */
const MIN_SEARCH_LENGTH = 3;

const locationSchema = z.object({
  name: z.string(),
  state: z.string(),
  country: z.string(),
  latitude: z.number(),
  longitude: z.number(),
}) satisfies z.ZodType<WeatherLocation>;

const forecastSchema = z.object({
  date: z.string(),
  dayPart: z.string(),
  icon: z.string(),
  summary: z.string(),
  tempCelsius: z.number(),
  tempFahrenheit: z.number(),
  highestCelsius: z.number(),
  highestFahrenheit: z.number(),
  lowestCelsius: z.number(),
  lowestFahrenheit: z.number(),
  precipitationPercent: z.number(),
}) satisfies z.ZodType<WeatherForecast>;

const weatherContentSchema = z.object({
  locationName: z.string(),
  timezone: z.string(),
  forecastIntervalType: z.literal(FORECAST_INTERVALS),
  temperatureType: z.enum(TEMPERATURE_TYPES),
  forecasts: z.array(forecastSchema),
}) satisfies z.ZodType<WeatherContent>;

const weatherQuerySchema = z.object({
  latitude: z.coerce
    .number({ error: 'Latitude must be a number' })
    .min(-90, { error: 'Latitude must be between -90 and 90' })
    .max(90, { error: 'Latitude must be between -90 and 90' }),
  longitude: z.coerce
    .number({ error: 'Longitude must be a number' })
    .min(-180, { error: 'Longitude must be between -180 and 180' })
    .max(180, { error: 'Longitude must be between -180 and 180' }),
  forecastIntervalType: z.coerce
    .number()
    .pipe(z.literal(FORECAST_INTERVALS, { error: 'Forecast must be 1 or 5 days' }))
    .default(5),
  temperatureType: z.enum(TEMPERATURE_TYPES, { error: "Temperature must be 'F' or 'C'" }).default('F'),
  locationName: z.string().trim().max(200).default(''),
});

export function weatherRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod {
  const { sources, authenticate } = deps;
  return async (app) => {
    app.get(
      '/data-sources/weather/locations',
      {
        preHandler: authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Places matching a name (Open-Meteo geocoding), for choosing a weather location',
          description: `The search needs at least ${MIN_SEARCH_LENGTH} characters (400 otherwise); no match answers an empty list.`,
          security: [{ bearerAuth: [] }],
          querystring: z.object({
            search: z
              .string({ error: 'Search is required' })
              .trim()
              .min(MIN_SEARCH_LENGTH, { error: 'Search must have more than 2 characters' })
              .max(100, { error: 'Search must have at most 100 characters' }),
          }),
          response: { 200: z.object({ locations: z.array(locationSchema) }) },
        },
      },
      async (request) => {
        const places = await openMeteoClient(sources).searchPlaces(request.query.search);
        const locations = places.map((place) => ({
          name: place.name,
          state: place.admin1 ?? '',
          country: place.country,
          latitude: place.latitude,
          longitude: place.longitude,
        }));
        return { locations };
      },
    );

    app.get(
      '/data-sources/weather',
      {
        preHandler: authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'The 1-day (parts of today) or 5-day forecast of a place, in °C and °F',
          security: [{ bearerAuth: [] }],
          querystring: weatherQuerySchema,
          response: { 200: weatherContentSchema },
        },
      },
      async (request) => {
        // Weekday names in the signed-in user's locale, as their digest will show them.
        const { locale } = await deps.contextOf(authOf(request).userId);
        return weatherContent(sources, request.query, locale);
      },
    );
  };
}
