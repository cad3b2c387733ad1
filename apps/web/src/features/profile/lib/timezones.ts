import { isIanaTimeZone, type Timezone, timeZoneOffset } from '@digest/contracts';

/** The browser's guessed time zone (docs/product.md §4 "Default timezone"). */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && isIanaTimeZone(zone)) return zone;
  } catch {
    // Fall through.
  }
  return 'UTC';
}

export function browserLocale(): string {
  try {
    return Intl.getCanonicalLocales(navigator.language || 'en-US')[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/** Minutes east of UTC of `zone` at `at` (Europe/Warsaw in winter: 60); 0 for a zone the browser does not know. */
export function zoneOffsetMinutes(zone: string, at: Date = new Date()): number {
  try {
    return timeZoneOffset(zone, at.getTime());
  } catch {
    return 0;
  }
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  return `UTC${sign}${hours}:${String(abs % 60).padStart(2, '0')}`;
}

/** The profile value for a zone: `{ timezone, locale, offset }` (docs/product.md §3). */
export function timezoneValue(zone: string, at: Date = new Date()): Timezone {
  return { timezone: zone, locale: browserLocale(), offset: zoneOffsetMinutes(zone, at) };
}

export interface TimeZoneOption {
  value: string;
  label: string;
  offset: number;
}

function supportedZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/**
 * Every IANA zone the browser knows, sorted by offset then name (docs/product.md §9), labelled
 * "(UTC+01:00) Europe/Warsaw". `include` adds zones missing from the list (UTC, a saved alias).
 */
export function timeZoneOptions(include: readonly string[] = [], at: Date = new Date()): TimeZoneOption[] {
  const zones = new Set(supportedZones());
  for (const zone of ['UTC', ...include]) if (zone && isIanaTimeZone(zone)) zones.add(zone);
  return [...zones]
    .map((zone) => {
      const offset = zoneOffsetMinutes(zone, at);
      return { value: zone, offset, label: `(${formatOffset(offset)}) ${zone.replaceAll('_', ' ')}` };
    })
    .sort((a, b) => a.offset - b.offset || a.value.localeCompare(b.value));
}
