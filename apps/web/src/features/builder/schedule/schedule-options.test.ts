import { DIGEST_DEFAULTS } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { browserTimeZone } from '#web/features/profile';
import {
  FREQUENCY_OPTIONS,
  initialTimeZone,
  MONTH_DAY_OPTIONS,
  scheduleZoneOptions,
  TIME_OPTIONS,
  timeZoneChanged,
  WEEK_DAY_OPTIONS,
} from './schedule-options';

const WINTER = new Date('2025-01-15T12:00:00Z');
const warsaw = { timezone: { timezone: 'Europe/Warsaw', locale: 'pl-PL', offset: 60 } };

describe('time of day: every 5 minutes, shown 12-hour, stored HH:mm (docs/product.md §9)', () => {
  it('has 288 entries from 12:00 am to 11:55 pm', () => {
    expect(TIME_OPTIONS).toHaveLength(288);
    expect(TIME_OPTIONS[0]).toEqual({ value: '00:00', label: '12:00 am' });
    expect(TIME_OPTIONS.at(-1)).toEqual({ value: '23:55', label: '11:55 pm' });
  });

  it('reads 7:05 pm for 19:05 and 12:00 pm for noon', () => {
    expect(TIME_OPTIONS.find((option) => option.value === '19:05')?.label).toBe('7:05 pm');
    expect(TIME_OPTIONS.find((option) => option.value === '12:00')?.label).toBe('12:00 pm');
  });

  it('includes the default 07:00 as 7:00 am', () => {
    expect(TIME_OPTIONS.find((option) => option.value === DIGEST_DEFAULTS.time)?.label).toBe('7:00 am');
  });
});

describe('frequency, weekday and day of month (docs/product.md §9)', () => {
  it('offers Daily, Weekly, Monthly', () => {
    expect(FREQUENCY_OPTIONS.map((option) => option.label)).toEqual(['Daily', 'Weekly', 'Monthly']);
  });

  it('offers Sunday to Saturday, valued by index', () => {
    expect(WEEK_DAY_OPTIONS[0]).toEqual({ value: '0', label: 'Sunday' });
    expect(WEEK_DAY_OPTIONS[6]).toEqual({ value: '6', label: 'Saturday' });
  });

  it('offers the month days as ordinals, 1st to 31st', () => {
    expect(MONTH_DAY_OPTIONS).toHaveLength(31);
    expect(MONTH_DAY_OPTIONS.slice(0, 4).map((option) => option.label)).toEqual(['1st', '2nd', '3rd', '4th']);
    expect(MONTH_DAY_OPTIONS[10]?.label).toBe('11th');
    expect(MONTH_DAY_OPTIONS[21]).toEqual({ value: '22', label: '22nd' });
    expect(MONTH_DAY_OPTIONS[30]).toEqual({ value: '31', label: '31st' });
  });
});

describe('time zone of the schedule', () => {
  it("starts at the profile's zone, else at the browser's guess", () => {
    expect(initialTimeZone(warsaw)).toBe('Europe/Warsaw');
    expect(initialTimeZone({ timezone: null })).toBe(browserTimeZone());
  });

  it('is saved to the profile only when it differs from it (or the profile has none)', () => {
    expect(timeZoneChanged(warsaw, 'Europe/Warsaw')).toBe(false);
    expect(timeZoneChanged(warsaw, 'Asia/Tokyo')).toBe(true);
    expect(timeZoneChanged({ timezone: null }, 'Europe/Warsaw')).toBe(true);
  });

  it('lists every zone sorted by offset, labelled with it, the saved one included', () => {
    const options = scheduleZoneOptions({ timezone: { ...warsaw.timezone, timezone: 'US/Pacific' } }, WINTER);
    const offsets = options.map((option) => option.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets[0]).toBeLessThan(offsets.at(-1) ?? 0);
    expect(options.find((option) => option.value === 'US/Pacific')?.label).toBe('(UTC-08:00) US/Pacific');
    expect(options.find((option) => option.value === 'Asia/Tokyo')?.label).toBe('(UTC+09:00) Asia/Tokyo');
  });
});
