import * as z from 'zod/mini';
import { percent, type WeatherConditions, weatherConditions } from './conditions';
import { common, id, inputSchema } from './fields';
import { oneItem, type SourceKind } from './source-kind';

/** One part of a forecast: a day (5-day forecast) or a part of today (1-day forecast). */
export interface WeatherForecast {
  /** ISO date (YYYY-MM-DD) in the location's zone. */
  date: string;
  /** 'Morning' | 'Afternoon' | 'Evening' | 'Night' for the 1-day forecast; the weekday name for 5 days. */
  dayPart: string;
  /** Icon name derived from the WMO weather code, e.g. 'clear-day', 'rain', 'snow'. */
  icon: string;
  /** Words for the icon, e.g. 'Light rain' (alt text). */
  summary: string;
  tempCelsius: number;
  tempFahrenheit: number;
  highestCelsius: number;
  highestFahrenheit: number;
  lowestCelsius: number;
  lowestFahrenheit: number;
  /** 0–100. */
  precipitationPercent: number;
}

export interface WeatherContent {
  locationName: string;
  /** The location's IANA zone (Open-Meteo `timezone=auto`). */
  timezone: string;
  forecastIntervalType: 1 | 5;
  temperatureType: 'F' | 'C';
  forecasts: WeatherForecast[];
}

/** docs/product.md §3 weather location (the location search). */
export interface WeatherLocation {
  name: string;
  state: string;
  country: string;
  latitude: number;
  longitude: number;
}

export const FORECAST_INTERVALS = [1, 5] as const;
export const TEMPERATURE_TYPES = ['F', 'C'] as const;

export const FORECAST_OPTIONS = [
  { value: 1, label: '1 day' },
  { value: 5, label: '5 days' },
] as const;
export const TEMPERATURE_OPTIONS = [
  { value: 'F', label: 'Fahrenheit (°F)' },
  { value: 'C', label: 'Celsius (°C)' },
] as const;

const LABEL = 'Weather';

/**
 * Today's forecast, what the conditions look at: every part of today in the 1-day forecast (its night
 * included), the first day of the 5-day one.
 */
const todayOf = (content: WeatherContent) =>
  content.forecastIntervalType === 1 ? content.forecasts : content.forecasts.slice(0, 1);

/**
 * Why the weather has nothing to say under its conditions ("no rain expected (30 % < 60 %)"), or undefined.
 * With both conditions set, either one met is enough: rain or an unusual temperature is worth a line.
 */
function weatherUnmet(
  conditions: WeatherConditions | undefined,
  content: WeatherContent,
): string | undefined {
  const { rainAtLeast, temperatureOutside: range } = conditions ?? {};
  if (rainAtLeast === undefined && range === undefined) return undefined;
  const today = todayOf(content);
  if (today.length === 0) return undefined;
  const reasons: string[] = [];
  if (rainAtLeast !== undefined) {
    const rain = Math.max(...today.map((part) => part.precipitationPercent));
    if (rain >= rainAtLeast) return undefined;
    reasons.push(`no rain expected (${percent(rain)} < ${percent(rainAtLeast)})`);
  }
  if (range !== undefined) {
    const fahrenheit = content.temperatureType === 'F';
    const low = Math.min(...today.map((part) => (fahrenheit ? part.lowestFahrenheit : part.lowestCelsius)));
    const high = Math.max(
      ...today.map((part) => (fahrenheit ? part.highestFahrenheit : part.highestCelsius)),
    );
    if (low < range.min || high > range.max) return undefined;
    const unit = fahrenheit ? '°F' : '°C';
    reasons.push(
      `the temperature stays within ${range.min} to ${range.max} ${unit} (${low} to ${high} ${unit} today)`,
    );
  }
  return reasons.join(' and ');
}

const weatherShape = {
  type: z.literal('WEATHER'),
  ...common(LABEL),
  forecastIntervalType: z._default(
    z.literal(FORECAST_INTERVALS, { error: 'Forecast must be 1 or 5 days' }),
    5,
  ),
  temperatureType: z._default(z.enum(TEMPERATURE_TYPES, { error: "Temperature must be 'F' or 'C'" }), 'F'),
  latitude: z
    .number({ error: 'Latitude is required' })
    .check(
      z.gte(-90, { error: 'Latitude must be between -90 and 90' }),
      z.lte(90, { error: 'Latitude must be between -90 and 90' }),
    ),
  longitude: z
    .number({ error: 'Longitude is required' })
    .check(
      z.gte(-180, { error: 'Longitude must be between -180 and 180' }),
      z.lte(180, { error: 'Longitude must be between -180 and 180' }),
    ),
  locationName: id('Location name'),
  conditions: weatherConditions(),
};

export const weatherSourceSchema = inputSchema(weatherShape);
export type WeatherSource = z.output<typeof weatherSourceSchema>;

export const weatherKind = {
  type: 'WEATHER',
  label: LABEL,
  schema: weatherSourceSchema,
  storedSchema: z.object(weatherShape),
  category: 'everyday',
  popular: true,
  dataPath: 'weather',
  accountProvider: null,
  readsPrivateData: false,
  searched: true,
  count: null,
  icon: { key: 'weather', label: 'Weather' },
  title: () => LABEL,
  hasNews: (content) => content.forecasts.length > 0,
  items: oneItem<WeatherContent>(),
  conditions: { unmet: (source, content) => weatherUnmet(source.conditions, content) },
} as const satisfies SourceKind<WeatherContent, WeatherSource>;
