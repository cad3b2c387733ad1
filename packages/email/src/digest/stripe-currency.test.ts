import { describe, expect, it } from 'vitest';
import { stripeDecimalsOf } from './stripe-currency';

describe('Stripe counts amounts in the minor units of its own list, not ISO 4217 or Intl', () => {
  it('counts the zero-decimal currencies in whole units', () => {
    for (const currency of ['jpy', 'krw', 'vnd', 'clp', 'xof', 'xaf', 'xpf', 'bif', 'mga', 'pyg', 'ugx'])
      expect(stripeDecimalsOf(currency), currency).toBe(0);
  });

  it('counts the three-decimal currencies in thousandths', () => {
    for (const currency of ['bhd', 'jod', 'kwd', 'omr', 'tnd'])
      expect(stripeDecimalsOf(currency), currency).toBe(3);
  });

  it('counts every other currency in hundredths, ISK, HUF and TWD included (Stripe’s special cases)', () => {
    for (const currency of ['usd', 'eur', 'isk', 'huf', 'twd', 'idr', 'cop', 'pkr', 'iqd', 'lak'])
      expect(stripeDecimalsOf(currency), currency).toBe(2);
  });

  it('reads the code in any case, as Stripe sends it in lower case', () => {
    expect(stripeDecimalsOf('JPY')).toBe(0);
    expect(stripeDecimalsOf('Kwd')).toBe(3);
  });
});
