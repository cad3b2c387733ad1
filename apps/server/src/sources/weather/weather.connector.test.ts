import { type WeatherSource, weatherSourceSchema } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import {
  connectorDeps,
  fakeProvidersForFile,
  itReportsProviderFailures,
  sourceFailure,
} from '#server/sources/sources.test-support';
import { openMeteoFake } from '#test/fakes/providers/open-meteo';
import { openMeteoClient } from './weather.client';
import { weatherConnector } from './weather.connector';

const fakes = fakeProvidersForFile([openMeteoFake], '/open-meteo');

const WARSAW = { latitude: 52.2298, longitude: 21.0118, locationName: 'Warsaw' };

/** Fresh deps each time: no answer cached by an earlier test. */
const deps = (timeoutMs?: number) => connectorDeps(fakes, { timeoutMs });

function forecast(
  settings: Partial<WeatherSource> = {},
  options: { locale?: string; timeoutMs?: number } = {},
) {
  const source = weatherSourceSchema.parse({ type: 'WEATHER', ...WARSAW, ...settings });
  const context = { userId: 'user-1', timezone: 'Europe/Warsaw', locale: options.locale ?? 'en-US' };
  return weatherConnector(deps(options.timeoutMs)).fetchContent(source, context);
}

describe('5-day forecast', () => {
  it('gives one entry per day, named by weekday, with both scales and the day’s highest and lowest', async () => {
    const content = await forecast({ forecastIntervalType: 5, temperatureType: 'C' });
    expect(content).toMatchObject({
      locationName: 'Warsaw',
      timezone: 'Europe/Warsaw',
      forecastIntervalType: 5,
      temperatureType: 'C',
    });
    expect(content.forecasts.map((day) => `${day.date} ${day.dayPart}`)).toEqual([
      '2026-11-21 Saturday',
      '2026-11-22 Sunday',
      '2026-11-23 Monday',
      '2026-11-24 Tuesday',
      '2026-11-25 Wednesday',
    ]);
    expect(content.forecasts[2]).toEqual({
      date: '2026-11-23',
      dayPart: 'Monday',
      icon: 'snow',
      summary: 'Snow',
      tempCelsius: 3,
      tempFahrenheit: 37,
      highestCelsius: 3,
      highestFahrenheit: 37,
      lowestCelsius: -4,
      lowestFahrenheit: 25,
      precipitationPercent: 93,
    });
    expect(content.forecasts.map((day) => day.icon)).toEqual([
      'rain',
      'partly-cloudy-day',
      'snow',
      'cloudy',
      'showers',
    ]);
  });

  it('asks Open-Meteo for five days of the place, in its own time zone', async () => {
    await forecast({ forecastIntervalType: 5 });
    expect(fakes.hits('/open-meteo', '/v1/forecast')).toBe(1);
    const content = await forecast({ forecastIntervalType: 5, latitude: -33.87, longitude: 151.21 });
    expect(content.forecasts).toHaveLength(5);
  });

  it('names the weekdays in the owner’s locale', async () => {
    const content = await forecast({ forecastIntervalType: 5 }, { locale: 'pl-PL' });
    expect(content.forecasts[0]?.dayPart).toBe('sobota');
  });

  it('keeps the temperature scale the user chose and still gives both', async () => {
    const content = await forecast({ forecastIntervalType: 5, temperatureType: 'F' });
    expect(content.temperatureType).toBe('F');
    expect(content.forecasts[0]).toMatchObject({ tempCelsius: 7, tempFahrenheit: 44, lowestFahrenheit: 32 });
  });
});

describe('1-day forecast', () => {
  it('splits today into Morning, Afternoon, Evening and tonight from the hourly values', async () => {
    const content = await forecast({ forecastIntervalType: 1 });
    expect(content.forecasts.map((part) => `${part.date} ${part.dayPart}`)).toEqual([
      '2026-11-21 Morning',
      '2026-11-21 Afternoon',
      '2026-11-21 Evening',
      '2026-11-22 Night',
    ]);
    expect(content.forecasts[0]).toEqual({
      date: '2026-11-21',
      dayPart: 'Morning',
      icon: 'rain',
      summary: 'Light rain',
      tempCelsius: 3,
      tempFahrenheit: 37,
      highestCelsius: 5,
      highestFahrenheit: 41,
      lowestCelsius: 1,
      lowestFahrenheit: 34,
      precipitationPercent: 93,
    });
    expect(content.forecasts[3]).toMatchObject({
      icon: 'partly-cloudy-night',
      tempCelsius: -1,
      tempFahrenheit: 30,
      lowestCelsius: -2,
      precipitationPercent: 16,
    });
  });
});

describe('Open-Meteo failures', () => {
  itReportsProviderFailures({
    fakes,
    prefix: '/open-meteo',
    provider: 'Open-Meteo',
    also: {
      notFound: true,
      notJson: true,
      shape: { latitude: 1, longitude: 2 },
    },
    read: (timeoutMs) => forecast({}, { timeoutMs }),
  });

  it('passes on Open-Meteo’s refusal of coordinates out of range as a provider error, not a crash', async () => {
    const source = { ...weatherSourceSchema.parse({ type: 'WEATHER', ...WARSAW }), latitude: 123 };
    const context = { userId: 'user-1', timezone: 'UTC', locale: 'en-US' };
    const error = await sourceFailure(weatherConnector(deps()).fetchContent(source, context));
    expect(error.message).toBe('Open-Meteo answered 400');
  });
});

describe('place search (geocoding)', () => {
  it('finds places by name with their region and country, and none for an unknown name', async () => {
    const client = openMeteoClient(deps());
    const places = await client.searchPlaces('Warsaw');
    expect(places.map((place) => `${place.name}, ${place.admin1}, ${place.country}`)).toEqual([
      'Warsaw, Masovian, Poland',
      'Warsaw, Indiana, United States',
      'Warsaw, New York, United States',
    ]);
    expect(await client.searchPlaces('Atlantis')).toEqual([]);
  });
});
