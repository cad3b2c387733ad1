/**
 * Open-Meteo: the forecast API (`/v1/forecast`) and the geocoding API (`/geocoding/v1/search`), both
 * without a key. Answers from a recorded Warsaw forecast (any coordinates get it, echoed back rounded as
 * the real API does) and a recorded set of places. Checks what the real API checks: coordinates in range,
 * known variable names, forecast_days 0–16, a search name; errors in its `{ error, reason }` shape.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import type { FakeProvider, FakeResponse } from '../fake-provider';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/open-meteo/${name}`, import.meta.url), 'utf8'));

interface Forecast {
  hourly: Record<string, unknown[]>;
  hourly_units: Record<string, string>;
  daily: Record<string, unknown[]>;
  daily_units: Record<string, string>;
  [field: string]: unknown;
}

interface Place {
  name: string;
  [field: string]: unknown;
}

const forecast: Forecast = fixture('forecast-warsaw.json');
const places: Place[] = fixture('geocoding-places.json').results;

const HOURLY = new Set(['temperature_2m', 'precipitation_probability', 'weather_code']);
const DAILY = new Set([
  'weather_code',
  'temperature_2m_max',
  'temperature_2m_min',
  'precipitation_probability_max',
]);

const badRequest = (reason: string): FakeResponse => ({ status: 400, body: { error: true, reason } });

function coordinate(value: string | null, name: 'Latitude' | 'Longitude', limit: number) {
  const number = value === null || value.trim() === '' ? Number.NaN : Number(value);
  if (Number.isNaN(number)) return `Parameter '${name.toLowerCase()}' is missing or not a number`;
  if (Math.abs(number) > limit) {
    return `${name} must be in range of -${limit} to ${limit}°. Given: ${number.toFixed(1)}.`;
  }
  return number;
}

/** The requested variables, or the reason the real API gives for an unknown one. */
function variables(value: string | null, known: Set<string>, key: string): string[] | string {
  const names = (value ?? '').split(',').filter(Boolean);
  const unknown = names.find((name) => !known.has(name));
  if (unknown) return `Cannot initialize WeatherVariable from invalid String value ${unknown} for key ${key}`;
  return names;
}

/** Only the requested variables, for the requested number of days. */
function section(all: Record<string, unknown[]>, names: string[], length: number) {
  const out: Record<string, unknown[]> = { time: (all.time ?? []).slice(0, length) };
  for (const name of names) out[name] = (all[name] ?? []).slice(0, length);
  return out;
}

function units(all: Record<string, string>, names: string[]) {
  return Object.fromEntries(['time', ...names].map((name) => [name, all[name]]));
}

/** The recorded `time` values moved by whole days (dates 'YYYY-MM-DD' and local times 'YYYY-MM-DDTHH:mm'). */
function movedByDays(times: unknown[], days: number): unknown[] {
  if (days === 0) return times;
  return times.map((time) => {
    const moved = DateTime.fromISO(String(time)).plus({ days });
    return String(time).includes('T') ? moved.toFormat("yyyy-MM-dd'T'HH:mm") : moved.toISODate();
  });
}

/** Days from the recorded forecast's first day to today in its zone (for `npm run dev`). */
function daysToToday(): number {
  const recorded = DateTime.fromISO(String(forecast.daily.time?.[0]), { zone: String(forecast.timezone) });
  const today = DateTime.now().setZone(String(forecast.timezone)).startOf('day');
  return Math.round(today.diff(recorded.startOf('day'), 'days').days);
}

function answerForecast(query: URLSearchParams, moveToToday: boolean): FakeResponse {
  const latitude = coordinate(query.get('latitude'), 'Latitude', 90);
  if (typeof latitude === 'string') return badRequest(latitude);
  const longitude = coordinate(query.get('longitude'), 'Longitude', 180);
  if (typeof longitude === 'string') return badRequest(longitude);
  const hourly = variables(query.get('hourly'), HOURLY, 'hourly');
  if (typeof hourly === 'string') return badRequest(hourly);
  const daily = variables(query.get('daily'), DAILY, 'daily');
  if (typeof daily === 'string') return badRequest(daily);
  const days = Number(query.get('forecast_days') ?? 7);
  if (!Number.isInteger(days) || days < 0 || days > 16) {
    return badRequest(
      `Forecast days is invalid. Allowed range 0 to 16. Given ${query.get('forecast_days')}.`,
    );
  }
  const { hourly: recordedHourly, hourly_units, daily: recordedDaily, daily_units, ...meta } = forecast;
  const shift = moveToToday ? daysToToday() : 0;
  const allHourly = { ...recordedHourly, time: movedByDays(recordedHourly.time ?? [], shift) };
  const allDaily = { ...recordedDaily, time: movedByDays(recordedDaily.time ?? [], shift) };
  const answer: Record<string, unknown> = {
    ...meta,
    latitude: Math.round(latitude * 4) / 4,
    longitude: Math.round(longitude * 4) / 4,
  };
  if (query.get('timezone') !== 'auto')
    Object.assign(answer, { timezone: 'GMT', timezone_abbreviation: 'GMT' });
  if (hourly.length > 0) {
    answer.hourly_units = units(hourly_units, hourly);
    answer.hourly = section(allHourly, hourly, days * 24);
  }
  if (daily.length > 0) {
    answer.daily_units = units(daily_units, daily);
    answer.daily = section(allDaily, daily, days);
  }
  return { body: answer };
}

/** Places whose name, or a word of it, starts with the search (the real API matches prefixes too). */
function answerSearch(query: URLSearchParams): FakeResponse {
  const name = query.get('name');
  if (name === null) return badRequest("Parameter 'name' is missing");
  const count = Number(query.get('count') ?? 10);
  if (!Number.isInteger(count) || count < 1 || count > 100) {
    return badRequest('Parameter count must be between 1 and 100.');
  }
  const search = name.trim().toLowerCase();
  const results =
    search.length < 2
      ? []
      : places
          .filter((place) =>
            place.name
              .toLowerCase()
              .split(/\s+/)
              .some((word) => word.startsWith(search)),
          )
          .slice(0, count);
  // The real API leaves `results` out entirely when nothing matches.
  return { body: results.length > 0 ? { results, generationtime_ms: 0.62 } : { generationtime_ms: 0.41 } };
}

/**
 * The fake Open-Meteo. With `moveToToday` (as `npm run dev` and e2e run it) the recorded forecast starts
 * today; tests that check dates take it as recorded.
 */
export function openMeteoFakeWith(options: { moveToToday: boolean }): FakeProvider {
  return {
    prefix: '/open-meteo',
    env: { OPEN_METEO_BASE_URL: '', OPEN_METEO_GEOCODING_BASE_URL: '/geocoding' },
    handle(request) {
      if (request.method !== 'GET')
        return { status: 405, body: { error: true, reason: 'Method not allowed' } };
      if (request.path === '/v1/forecast') return answerForecast(request.query, options.moveToToday);
      if (request.path === '/geocoding/v1/search') return answerSearch(request.query);
      return { status: 404, body: { error: true, reason: 'Not Found' } };
    },
  };
}

/** As recorded: the forecast starts on 2026-11-21. */
export const openMeteoFake = openMeteoFakeWith({ moveToToday: false });
