import type { BlockContext } from './types';

/**
 * Formatting in the owner's locale and zone with `Intl` only (no Node APIs: the builder preview uses
 * the same components in the browser). An unknown locale or zone falls back to 'en-US' / UTC instead of
 * failing the whole issue.
 */
function dateFormat(context: BlockContext, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(context.locale, { ...options, timeZone: context.timeZone });
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
}

/** 'Sunday, November 22, 2026': the issue's date where the owner lives. */
export function formatIssueDate(date: Date, context: BlockContext): string {
  return dateFormat(context, { dateStyle: 'full' }).format(date);
}

/** 'Nov 21' for an ISO instant (posts, videos, tweets); '' when there is none or it is not a date. */
export function formatShortDate(iso: string, context: BlockContext): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return dateFormat(context, { month: 'short', day: 'numeric' }).format(date);
}

/** An amount in the minor units of `currency` (Stripe cents), e.g. 123456 USD → '$1,234.56'. */
export function formatMoney(minorUnits: number, currency: string, locale: string): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
  } catch {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
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
