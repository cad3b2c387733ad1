/** Today's date in the owner's zone and locale, computed when the issue is built. */
export interface DateContent {
  /** ISO date (YYYY-MM-DD). */
  date: string;
  /** e.g. 'Sunday, November 22, 2026' in the owner's locale. */
  formatted: string;
  weekday: string;
  timezone: string;
}
