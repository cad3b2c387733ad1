import { SOURCE_SCHEMAS, type WeatherSource } from '@digest/contracts';
import type { WeatherLocation } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { weatherKeys } from '#web/features/builder/api/weather-api';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { locationLabel, locationSettings } from './location';
import { LocationResults, WeatherPanel } from './WeatherPanel';

const springfield: WeatherLocation = {
  name: 'Springfield',
  state: 'Illinois',
  country: 'United States',
  latitude: 39.8,
  longitude: -89.64,
};
const berlin: WeatherLocation = {
  name: 'Berlin',
  state: 'Berlin',
  country: 'Germany',
  latitude: 52.52,
  longitude: 13.41,
};

const saved: WeatherSource = {
  type: 'WEATHER',
  name: 'Home',
  showHeading: true,
  forecastIntervalType: 1,
  temperatureType: 'C',
  latitude: 52.52,
  longitude: 13.41,
  locationName: 'Berlin, Germany',
};

describe('a picked weather location', () => {
  it('is named by its place, state and country, a state named like its city said once', () => {
    expect(locationLabel(springfield)).toBe('Springfield, Illinois, United States');
    expect(locationLabel(berlin)).toBe('Berlin, Germany');
    expect(locationLabel({ ...springfield, state: '' })).toBe('Springfield, United States');
  });

  it('gives valid settings with the docs/product.md §9 defaults (5 days, Fahrenheit)', () => {
    const source = SOURCE_SCHEMAS.WEATHER.parse({ type: 'WEATHER', ...locationSettings(springfield) });
    expect(source).toMatchObject({
      latitude: 39.8,
      longitude: -89.64,
      locationName: 'Springfield, Illinois, United States',
      forecastIntervalType: 5,
      temperatureType: 'F',
    });
  });
});

describe('Weather panel (docs/product.md §4: selected → searching → edit)', () => {
  it("selected: a city search box and 'Search results will display here'", () => {
    const html = renderWithData(<WeatherPanel {...panelProps('WEATHER', 'selected')} />);
    expect(html).toContain('placeholder="Search for a city"');
    expect(html).toContain('Search results will display here');
    expect(html).not.toContain('Save');
  });

  it('searching: the places found, as buttons', () => {
    const html = renderWithData(<LocationResults query="Spring" onPick={() => {}} />, [
      [weatherKeys.locations('Spring'), [springfield]],
    ]);
    expect(html).toContain('>Results</h3>');
    expect(buttonTag(html, 'SpringfieldSpringfield, Illinois, United States')).toBeDefined();
  });

  it("searching: 12 placeholders while loading, 'No results...' for nothing found", () => {
    const loading = renderWithData(<LocationResults query="Spring" onPick={() => {}} />);
    expect(loading.match(/<li/g)).toHaveLength(12);
    const none = renderWithData(<LocationResults query="Nowhere" onPick={() => {}} />, [
      [weatherKeys.locations('Nowhere'), []],
    ]);
    expect(none).toContain('No results...');
  });

  it('edit: a saved block opens with its location, forecast, temperature and name', () => {
    const html = renderWithData(<WeatherPanel {...panelProps('WEATHER', 'edit', { initial: saved })} />);
    expect(html).toContain('Berlin, Germany');
    expect(buttonTag(html, 'Change')).toContain('aria-label="Change location"');
    expect(html).toContain('value="Home"');
    expect(html).toContain('<option value="1" selected="">1 day</option>');
    expect(html).toContain('<option value="C" selected="">Celsius (°C)</option>');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });
});
