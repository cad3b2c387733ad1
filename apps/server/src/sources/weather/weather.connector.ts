import type { WeatherSource } from '@digest/contracts';
import type { WeatherContent, WeatherForecast } from '@digest/contracts/content';
import type { Connector, SourcesDeps } from '#server/sources/connector';
import { type OpenMeteoForecast, openMeteoClient } from './weather.client';
import { describeWeather } from './weather-codes';

export type WeatherRequest = Pick<
  WeatherSource,
  'latitude' | 'longitude' | 'forecastIntervalType' | 'temperatureType' | 'locationName'
>;

/**
 * The parts of the 1-day forecast, by the hours they cover in the place's zone. Night is tonight (the
 * small hours of tomorrow), the part still ahead when a morning digest is read; so the 1-day forecast
 * asks for two days of hourly values.
 */
const DAY_PARTS = [
  { dayPart: 'Morning', day: 0, fromHour: 6 },
  { dayPart: 'Afternoon', day: 0, fromHour: 12 },
  { dayPart: 'Evening', day: 0, fromHour: 18 },
  { dayPart: 'Night', day: 1, fromHour: 0 },
] as const;
const HOURS_PER_PART = 6;
const FIVE_DAYS = 5;

const fahrenheit = (celsius: number) => Math.round((celsius * 9) / 5 + 32);

function present(values: (number | null | undefined)[]): number[] {
  return values.filter((value): value is number => typeof value === 'number');
}

/** One forecast entry from °C values: every temperature given in both scales, rounded. */
function forecastEntry(
  date: string,
  dayPart: string,
  values: { temp: number; high: number; low: number; precipitation: number; code: number },
  night: boolean,
): WeatherForecast {
  const { icon, summary } = describeWeather(values.code, night);
  return {
    date,
    dayPart,
    icon,
    summary,
    tempCelsius: Math.round(values.temp),
    tempFahrenheit: fahrenheit(values.temp),
    highestCelsius: Math.round(values.high),
    highestFahrenheit: fahrenheit(values.high),
    lowestCelsius: Math.round(values.low),
    lowestFahrenheit: fahrenheit(values.low),
    precipitationPercent: Math.round(values.precipitation),
  };
}

/**
 * Today's Morning, Afternoon, Evening and Night from the hourly values: the mean temperature of the part,
 * its highest and lowest, the highest chance of rain, and the most severe weather code (WMO codes grow
 * with severity, so "rain this afternoon" shows even when only one hour of it is rainy).
 */
function todayParts(answer: OpenMeteoForecast): WeatherForecast[] {
  const { hourly, daily } = answer;
  return DAY_PARTS.flatMap(({ dayPart, day, fromHour }) => {
    const date = daily.time[day];
    if (!date) return [];
    const hours = hourly.time.flatMap((time, index) => {
      const hour = Number(time.slice(11, 13));
      return time.startsWith(date) && hour >= fromHour && hour < fromHour + HOURS_PER_PART ? [index] : [];
    });
    const temperatures = present(hours.map((index) => hourly.temperature_2m[index]));
    const codes = present(hours.map((index) => hourly.weather_code[index]));
    if (temperatures.length === 0 || codes.length === 0) return [];
    const precipitation = present(hours.map((index) => hourly.precipitation_probability[index]));
    const values = {
      temp: temperatures.reduce((sum, value) => sum + value, 0) / temperatures.length,
      high: Math.max(...temperatures),
      low: Math.min(...temperatures),
      precipitation: precipitation.length > 0 ? Math.max(...precipitation) : 0,
      code: Math.max(...codes),
    };
    return [forecastEntry(date, dayPart, values, dayPart === 'Night')];
  });
}

/** The weekday of an ISO date in `locale` (the date is the place's own, so no zone shift applies). */
function weekdayName(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** One entry per day from the daily values; a day's temperature is its highest, as forecasts headline. */
function nextDays(answer: OpenMeteoForecast, locale: string): WeatherForecast[] {
  const { daily } = answer;
  return daily.time.slice(0, FIVE_DAYS).flatMap((date, index) => {
    const high = daily.temperature_2m_max[index];
    const low = daily.temperature_2m_min[index];
    const code = daily.weather_code[index];
    if (high == null || low == null || code == null) return [];
    const precipitation = daily.precipitation_probability_max[index] ?? 0;
    return [
      forecastEntry(date, weekdayName(date, locale), { temp: high, high, low, precipitation, code }, false),
    ];
  });
}

/** The forecast a weather block shows, in both temperature scales (the block picks one to show). */
export async function weatherContent(
  deps: Pick<SourcesDeps, 'http' | 'providers'>,
  request: WeatherRequest,
  locale: string,
): Promise<WeatherContent> {
  const daily = request.forecastIntervalType === 1;
  const answer = await openMeteoClient(deps).forecast(request, daily ? 2 : FIVE_DAYS);
  return {
    locationName: request.locationName,
    timezone: answer.timezone,
    forecastIntervalType: request.forecastIntervalType,
    temperatureType: request.temperatureType,
    forecasts: daily ? todayParts(answer) : nextDays(answer, locale),
  };
}

export function weatherConnector(deps: SourcesDeps): Connector<'WEATHER'> {
  return {
    type: 'WEATHER',
    fetchContent: (source, context) => weatherContent(deps, source, context.locale),
  };
}
