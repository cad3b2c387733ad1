import { describe, expect, it } from 'vitest';
import { formatClock, formatIssueDate, formatMoney, formatShortDate } from './format';

describe('formatClock', () => {
  it('turns 12-hour times into 24-hour ones and back', () => {
    expect(formatClock('7:30 PM', '24h')).toBe('19:30');
    expect(formatClock('12:05 AM', '24h')).toBe('00:05');
    expect(formatClock('12:00 PM', '24h')).toBe('12:00');
    expect(formatClock('09:00', '12h')).toBe('9:00 AM');
    expect(formatClock('00:15', '12h')).toBe('12:15 AM');
    expect(formatClock('21:45', '12h')).toBe('9:45 PM');
  });

  it('leaves a time it does not recognise as it is', () => {
    expect(formatClock('21 h 45', '12h')).toBe('21 h 45');
  });
});

describe('formatMoney', () => {
  it('reads minor units per currency', () => {
    expect(formatMoney(123_456, 'usd', 'en-US')).toBe('$1,234.56');
    expect(formatMoney(5000, 'jpy', 'en-US')).toBe('¥5,000');
  });
});

describe('formatIssueDate', () => {
  it('falls back to UTC and en-US for a zone or locale Intl does not know', () => {
    const date = new Date('2026-11-22T02:00:00Z');
    expect(formatIssueDate(date, { locale: 'en-US', timeZone: 'Mars/Olympus' })).toBe(
      'Sunday, November 22, 2026',
    );
  });
});

describe('formatShortDate', () => {
  it('keeps the zone and locale of each call apart although formatters are reused', () => {
    const iso = '2026-11-22T02:00:00Z';
    expect(formatShortDate(iso, { locale: 'en-US', timeZone: 'UTC' })).toBe('Nov 22');
    expect(formatShortDate(iso, { locale: 'en-US', timeZone: 'America/New_York' })).toBe('Nov 21');
    expect(formatShortDate(iso, { locale: 'fr-FR', timeZone: 'UTC' })).toBe('22 nov.');
    expect(formatShortDate(iso, { locale: 'en-US', timeZone: 'UTC' })).toBe('Nov 22');
  });
});
