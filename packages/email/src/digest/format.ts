import { stripeDecimalsOf } from './stripe-currency';
import type { BlockContext } from './types';

/**
 * Formatting in the owner's locale and zone with `Intl` only (no Node APIs: the builder preview uses
 * the same components in the browser). An unknown locale or zone falls back to 'en-US' / UTC instead of
 * failing the whole issue.
 */
function createDateFormat(context: BlockContext, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(context.locale, { ...options, timeZone: context.timeZone });
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
}

/** The two date styles the mails use. */
const DATE_STYLES = {
  full: { dateStyle: 'full' },
  short: { month: 'short', day: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/**
 * Formatters are kept per style, locale and zone: creating one costs about as much as rendering a block's
 * items (a burst's CPU profile had it first, one per item of every issue), and an issue asks for the same
 * few. Bounded: the oldest formatter goes first once there are more than this.
 */
const MAX_FORMATS = 500;
const formats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(context: BlockContext, style: keyof typeof DATE_STYLES): Intl.DateTimeFormat {
  const key = `${style} ${context.locale} ${context.timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = createDateFormat(context, DATE_STYLES[style]);
    if (formats.size >= MAX_FORMATS) formats.delete(formats.keys().next().value as string);
    formats.set(key, format);
  }
  return format;
}

/** 'Sunday, November 22, 2026': the issue's date where the owner lives. */
export function formatIssueDate(date: Date, context: BlockContext): string {
  return dateFormat(context, 'full').format(date);
}

/** 'Nov 21' for an ISO instant (posts, videos, tweets); '' when there is none or it is not a date. */
export function formatShortDate(iso: string, context: BlockContext): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return dateFormat(context, 'short').format(date);
}

/**
 * A Stripe amount in the minor units Stripe counts `currency` in (stripe-currency.ts), e.g. 123456 USD →
 * '$1,234.56', 500 ISK → 'ISK 5'. Shown with the currency's usual decimals in `locale`, and more only
 * when the amount has a fraction they would round away (12345 HUF → 'HUF 123.45').
 */
export function formatMoney(minorUnits: number, currency: string, locale: string): string {
  const options = { style: 'currency', currency: currency.toUpperCase() } as const;
  let usual: Intl.NumberFormat;
  try {
    usual = new Intl.NumberFormat(locale, options);
  } catch {
    usual = new Intl.NumberFormat('en-US', options);
  }
  const decimals = stripeDecimalsOf(currency);
  const amount = minorUnits / 10 ** decimals;
  const { minimumFractionDigits = 0, maximumFractionDigits = 2, locale: resolved } = usual.resolvedOptions();
  if (Number.isInteger(amount * 10 ** maximumFractionDigits)) return usual.format(amount);
  return new Intl.NumberFormat(resolved, {
    ...options,
    minimumFractionDigits,
    maximumFractionDigits: Math.max(maximumFractionDigits, decimals),
  }).format(amount);
}

/** 'h:mm AM' ↔ 'HH:mm' of a calendar time the connector formatted, or the text unchanged when it is neither. */
export function formatClock(time: string, format: '12h' | '24h'): string {
  const match = /^(\d{1,2}):(\d{2})(?:\s*([AaPp])\.?\s*[Mm]\.?)?$/.exec(time.trim());
  if (!match) return time;
  const [, hourText = '0', minutes = '00', meridiem] = match;
  let hour = Number(hourText);
  if (meridiem) hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  if (format === '24h') return `${String(hour).padStart(2, '0')}:${minutes}`;
  return `${hour % 12 || 12}:${minutes} ${hour < 12 ? 'AM' : 'PM'}`;
}
