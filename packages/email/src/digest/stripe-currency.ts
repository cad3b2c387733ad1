/**
 * How many decimals Stripe counts a currency's amounts in: its own list, from "Supported currencies"
 * (https://docs.stripe.com/currencies, "Zero-decimal currencies", "Three-decimal currencies" and "Special
 * cases"), not ISO 4217 or `Intl`. They differ: `Intl` gives ISK, HUF, IDR, COP, PKR, IQD, LAK … no
 * decimals, while Stripe counts all of them in hundredths, so reading `Intl` showed those revenues 100×
 * too high.
 *
 * The special cases stay two-decimal in the API: ISK is zero-decimal in practice since 2023, yet Stripe
 * keeps its amounts in hundredths (always ending in 00) for backwards compatibility; HUF and TWD are
 * zero-decimal only for payouts, and charges carry hundredths. UGX is on the zero-decimal list.
 */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Stripe requires their last digit to be 0 (amounts rounded to the nearest ten), but counts thousandths. */
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** 0, 2 or 3: the power of ten a Stripe `amount` in `currency` is divided by to give whole units. */
export function stripeDecimalsOf(currency: string): 0 | 2 | 3 {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}
