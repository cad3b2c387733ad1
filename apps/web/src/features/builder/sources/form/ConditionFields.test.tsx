// @vitest-environment happy-dom
import type { Source } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { HackerNewsPanel } from '../hacker-news/HackerNewsPanel';
import { RssPanel } from '../rss/RssPanel';
import { WeatherPanel } from '../weather/WeatherPanel';
import { panelProps } from './render-panel';

afterEach(cleanup);

/** The panel, and every settings it reported (null while a field is wrong), last one last. */
function renderPanel(panel: (onChange: (source: Source | null) => void) => ReactElement) {
  const reported: (Source | null)[] = [];
  render(
    <QueryClientProvider client={createQueryClient()}>
      {panel((source) => reported.push(source))}
    </QueryClientProvider>,
  );
  return reported;
}

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

describe('conditions in the builder (docs/product.md §3 "Conditions")', () => {
  it('Hacker News: sets points and comments under conditions; an emptied field removes the condition', () => {
    const reported = renderPanel((onChange) => (
      <HackerNewsPanel {...panelProps('HACKER_NEWS', 'edit', { onChange: onChange as never })} />
    ));
    expect(reported.at(-1)).not.toHaveProperty('conditions');
    type('Points at least', '100');
    type('Comments at least', '20');
    expect(reported.at(-1)).toMatchObject({ conditions: { minPoints: 100, minComments: 20 } });
    type('Points at least', '');
    type('Comments at least', '');
    // As saved (JSON): no `conditions` at all, as before conditions existed.
    expect(JSON.stringify(reported.at(-1))).not.toContain('conditions');
    expect(save().disabled).toBe(false);
  });

  it.each([
    ['Points at least', '-5', 'Points at least must be 0 or more'],
    ['Comments at least', '2.5', 'Comments at least must be a whole number'],
    ['New items at least', '11', 'New items at least must be from 1 to 10'],
    ['New items at least', '0', 'New items at least must be from 1 to 10'],
  ])('Hacker News refuses %s %s with the schema message and disables Save', (label, value, message) => {
    const reported = renderPanel((onChange) => (
      <HackerNewsPanel {...panelProps('HACKER_NEWS', 'edit', { onChange: onChange as never })} />
    ));
    type(label, value);
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    expect(save().disabled).toBe(true);
    expect(reported.at(-1)).toBeNull();
  });

  const berlin = {
    type: 'WEATHER' as const,
    name: '',
    showHeading: true,
    forecastIntervalType: 1 as const,
    temperatureType: 'C' as const,
    latitude: 52.52,
    longitude: 13.41,
    locationName: 'Berlin, Germany',
  };

  it('Weather: rain chance and a temperature range in the block’s unit', () => {
    const reported = renderPanel((onChange) => (
      <WeatherPanel {...panelProps('WEATHER', 'edit', { initial: berlin, onChange: onChange as never })} />
    ));
    type('Rain chance at least (%)', '60');
    type('Lowest temperature (°C)', '-5');
    type('Highest temperature (°C)', '30');
    expect(reported.at(-1)).toMatchObject({
      conditions: { rainAtLeast: 60, temperatureOutside: { min: -5, max: 30 } },
    });
  });

  it.each([
    ['Rain chance at least (%)', '120', 'Rain chance at least (%) must be from 0 to 100'],
    ['Rain chance at least (%)', '-1', 'Rain chance at least (%) must be from 0 to 100'],
  ])('Weather refuses %s %s', (label, value, message) => {
    renderPanel((onChange) => (
      <WeatherPanel {...panelProps('WEATHER', 'edit', { initial: berlin, onChange: onChange as never })} />
    ));
    type(label, value);
    expect(screen.getByText(message)).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it('Weather refuses a range whose lowest is not below its highest, under the lowest field', () => {
    renderPanel((onChange) => (
      <WeatherPanel {...panelProps('WEATHER', 'edit', { initial: berlin, onChange: onChange as never })} />
    ));
    type('Lowest temperature (°C)', '30');
    type('Highest temperature (°C)', '10');
    expect(screen.getByText('Lowest temperature must be below the highest')).toBeTruthy();
    expect(screen.getByLabelText('Lowest temperature (°C)').getAttribute('aria-invalid')).toBe('true');
    expect(save().disabled).toBe(true);
  });

  it('an RSS feed: at least N new items, up to its 50 posts', () => {
    const initial = {
      type: 'RSS' as const,
      name: '',
      showHeading: true,
      feedLink: 'https://example.com/feed.xml',
      sourceName: 'Example',
      numberOfPosts: 6,
      images: 'show' as const,
      postBody: 'paragraph' as const,
      layout: 2 as const,
      onlyNew: true,
    };
    const reported = renderPanel((onChange) => (
      <RssPanel {...panelProps('RSS', 'edit', { initial, onChange: onChange as never })} />
    ));
    type('New items at least', '3');
    expect(reported.at(-1)).toMatchObject({ conditions: { minNewItems: 3 } });
    type('New items at least', '51');
    expect(screen.getByText('New items at least must be from 1 to 50')).toBeTruthy();
  });
});
