import { describe, expect, it } from 'vitest';
import { formatOffset, timeZoneOptions, zoneOffsetMinutes } from './timezones';

const WINTER = new Date('2025-01-15T12:00:00Z');
const SUMMER = new Date('2025-07-15T12:00:00Z');

describe('time zone offsets', () => {
  it('reads minutes east of UTC, following daylight saving time', () => {
    expect(zoneOffsetMinutes('Europe/Warsaw', WINTER)).toBe(60);
    expect(zoneOffsetMinutes('Europe/Warsaw', SUMMER)).toBe(120);
    expect(zoneOffsetMinutes('America/New_York', WINTER)).toBe(-300);
    expect(zoneOffsetMinutes('Asia/Kolkata', WINTER)).toBe(330);
    expect(zoneOffsetMinutes('UTC', WINTER)).toBe(0);
  });

  it('formats offsets as UTC±hh:mm', () => {
    expect(formatOffset(330)).toBe('UTC+05:30');
    expect(formatOffset(-300)).toBe('UTC-05:00');
    expect(formatOffset(0)).toBe('UTC+00:00');
  });
});

describe('time zone options', () => {
  it('lists IANA zones sorted by offset, then name', () => {
    const options = timeZoneOptions([], WINTER);
    expect(options.length).toBeGreaterThan(300);
    const offsets = options.map((option) => option.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(options.find((option) => option.value === 'Europe/Warsaw')?.label).toBe(
      '(UTC+01:00) Europe/Warsaw',
    );
    expect(options.some((option) => option.value === 'UTC')).toBe(true);
  });
});
