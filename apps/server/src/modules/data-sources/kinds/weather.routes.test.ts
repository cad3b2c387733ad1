import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { openMeteoFake } from '#test/fakes/providers/open-meteo';

let fakes: FakeProviders;
let api: TestApi;
let user: TestUser;
beforeAll(async () => {
  fakes = await startFakeProviders({ providers: [openMeteoFake] });
  api = await startTestApi({ fakes });
  user = await signUp(api);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});
afterEach(() => fakes.setFailure('/open-meteo', undefined));

const get = (url: string, headers: Record<string, string> = user.headers) =>
  api.app.inject({ method: 'GET', url, headers });

describe('GET /api/data-sources/weather/locations', () => {
  it('lists the places matching the search with name, state, country and coordinates', async () => {
    const response = await get('/api/data-sources/weather/locations?search=Warsaw');
    expect(response.statusCode).toBe(200);
    expect(response.json().locations[0]).toEqual({
      name: 'Warsaw',
      state: 'Masovian',
      country: 'Poland',
      latitude: 52.22977,
      longitude: 21.01178,
    });
    expect(response.json().locations).toHaveLength(3);
  });

  it('gives an empty state for a place without a region and an empty list for no match', async () => {
    const singapore = await get('/api/data-sources/weather/locations?search=Singapore');
    expect(singapore.json().locations).toEqual([
      { name: 'Singapore', state: '', country: 'Singapore', latitude: 1.28967, longitude: 103.85007 },
    ]);
    const none = await get('/api/data-sources/weather/locations?search=Atlantis');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ locations: [] });
  });

  it('refuses a search of 2 characters or fewer with 400', async () => {
    const response = await get('/api/data-sources/weather/locations?search=%20Wa%20');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Search must have more than 2 characters');
    expect((await get('/api/data-sources/weather/locations')).statusCode).toBe(400);
  });

  it('answers 401 without a token', async () => {
    const response = await get('/api/data-sources/weather/locations?search=Warsaw', {});
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/data-sources/weather', () => {
  it('answers the 1-day forecast as the parts of today', async () => {
    const response = await get(
      '/api/data-sources/weather?latitude=52.23&longitude=21.01&forecastIntervalType=1',
    );
    expect(response.statusCode).toBe(200);
    const content = response.json();
    expect(content.forecastIntervalType).toBe(1);
    expect(content.forecasts.map((part: { dayPart: string }) => part.dayPart)).toEqual([
      'Morning',
      'Afternoon',
      'Evening',
      'Night',
    ]);
  });

  it('answers the 5-day forecast with both temperature scales', async () => {
    const response = await get(
      '/api/data-sources/weather?latitude=52.23&longitude=21.01&forecastIntervalType=5',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().forecasts).toHaveLength(5);
    expect(response.json().forecasts[0]).toMatchObject({ tempCelsius: 7, tempFahrenheit: 44 });
  });

  it.each([
    ['latitude=91&longitude=21&forecastIntervalType=5', 'Latitude must be between -90 and 90'],
    ['latitude=52&longitude=-181&forecastIntervalType=5', 'Longitude must be between -180 and 180'],
    ['latitude=north&longitude=21&forecastIntervalType=5', 'latitude'],
    ['latitude=52&longitude=21&forecastIntervalType=3', 'Forecast must be 1 or 5 days'],
    ['longitude=21&forecastIntervalType=5', 'latitude'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await get(`/api/data-sources/weather?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('passes a provider 429 on with its Retry-After, never a 500', async () => {
    fakes.setFailure('/open-meteo', { status: 429, headers: { 'retry-after': '30' } });
    const response = await get(
      '/api/data-sources/weather?latitude=40.4&longitude=-3.7&forecastIntervalType=5',
    );
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toEqual({
      message: 'Open-Meteo answered 429: rate-limited, retry in 30 s',
      code: 'SOURCE_RATE_LIMITED',
    });
  });

  it('answers 401 without a token', async () => {
    const response = await get(
      '/api/data-sources/weather?latitude=52&longitude=21&forecastIntervalType=5',
      {},
    );
    expect(response.statusCode).toBe(401);
  });
});
