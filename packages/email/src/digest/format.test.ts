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

describe('formatMoney reads Stripe amounts in Stripe’s minor units', () => {
  it('reads hundredths, whole units and thousandths (USD, JPY, KWD)', () => {
    expect(formatMoney(123_456, 'usd', 'en-US')).toBe('$1,234.56');
    expect(formatMoney(5000, 'jpy', 'en-US')).toBe('¥5,000');
    expect(formatMoney(5120, 'kwd', 'en-US')).toBe('KWD\u00a05.120');
    expect(formatMoney(250_000, 'ugx', 'en-US')).toBe('UGX\u00a0250,000');
  });

  it('reads ISK, HUF, IDR and COP in hundredths although Intl gives them no decimals', () => {
    expect(formatMoney(500, 'isk', 'en-US')).toBe('ISK\u00a05');
    expect(formatMoney(1_250_000, 'huf', 'hu-HU')).toBe('12\u00a0500\u00a0Ft');
    expect(formatMoney(1_000_000, 'idr', 'en-US')).toBe('IDR\u00a010,000');
    expect(formatMoney(4_990_000, 'cop', 'en-US')).toBe('COP\u00a049,900');
    expect(formatMoney(10_000, 'twd', 'en-US')).toBe('NT$100.00');
  });

  it('keeps the fraction of an amount that has one rather than rounding it away', () => {
    expect(formatMoney(12_345, 'huf', 'en-US')).toBe('HUF\u00a0123.45');
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
