/**
 * Feed dates: RFC 822 (RSS, with the broken variants real feeds send), RFC 3339 / ISO 8601 (Atom,
 * JSON Feed, dc:date). Always ISO 8601 in UTC, or '' when the text is not a date we can read — a
 * wrong date is worse than none, so there is no guessing beyond the forms below.
 */

const MONTHS: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** Offsets in minutes of the zone names RFC 822 knows, plus ones feeds use anyway. */
const ZONES: Record<string, number> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  wet: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  sgt: 480,
  hkt: 480,
  jst: 540,
  kst: 540,
  aest: 600,
  aedt: 660,
  acst: 570,
  awst: 480,
  nzst: 720,
  nzdt: 780,
};

const MAX_DATE_LENGTH = 80;

const ISO =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[Tt\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;

/** A weekday name, abbreviated or not, with or without a comma ("Thu,", "Thursday", "Thu."). */
const WEEKDAY = String.raw`(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*`;

// Optional weekday (with or without comma), day, month name, year, optional time, optional zone.
const RFC822 = new RegExp(
  String.raw`^(?:${WEEKDAY})?(\d{1,2})(?:st|nd|rd|th)?[\s\-/]+([A-Za-z]{3,})\.?,?[\s\-/]+(\d{2,4})(?:[\s,T]+(\d{1,2})[:.](\d{2})(?:[:.](\d{2})(?:[.,]\d+)?)?\s*([AaPp][Mm])?)?\s*(.*)$`,
  'i',
);

// US order, as some feeds write it: "Thursday, January 1, 2004 7:48:21 PM GMT".
const MONTH_FIRST = new RegExp(
  String.raw`^(?:${WEEKDAY})?([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:[\s,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?\s*(.*)$`,
  'i',
);

function offsetOf(zone: string): number | undefined {
  const text = zone.trim().replace(/^\(|\)$/g, '');
  if (text === '') return 0;
  const numeric = /^(?:GMT|UTC|UT)?\s*([+-])(\d{1,2}):?(\d{2})?\b/i.exec(text);
  if (numeric) {
    const [, sign, hours = '0', minutes = '0'] = numeric;
    // "+0530" arrives as hours "05", minutes "30"; "-5" as hours "5".
    const total = Number(hours) * 60 + Number(minutes);
    return sign === '-' ? -total : total;
  }
  const name = /^[A-Za-z]+/.exec(text)?.[0]?.toLowerCase();
  if (name === undefined) return undefined;
  if (name in ZONES) return ZONES[name];
  // A zone name we do not know (or a military letter): read the time as UTC rather than drop the date.
  return name.length <= 5 ? 0 : undefined;
}

function fullYear(year: string): number {
  const value = Number(year);
  if (year.length === 2) return value < 50 ? 2000 + value : 1900 + value;
  return value;
}

function monthOf(name: string): number | undefined {
  return MONTHS[name.slice(0, 3).toLowerCase()];
}

function toIso(
  year: number,
  month: number,
  day: number,
  hours: number,
  minutes: number,
  seconds: number,
  offsetMinutes: number,
  milliseconds = 0,
): string {
  if (month < 0 || month > 11 || day < 1 || day > 31 || hours > 24 || minutes > 59 || seconds > 60) return '';
  const ms =
    Date.UTC(year, month, day, hours, minutes, Math.min(seconds, 59), milliseconds) - offsetMinutes * 60_000;
  const date = new Date(ms);
  // Date.UTC rolls 31 February into March: refuse instead of moving the day.
  if (Number.isNaN(ms) || new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return '';
  return date.toISOString();
}

function hours12(hours: string | undefined, meridiem: string | undefined): number {
  const value = Number(hours ?? 0);
  if (!meridiem) return value;
  const pm = meridiem.toLowerCase() === 'pm';
  return (value % 12) + (pm ? 12 : 0);
}

/** The date as ISO 8601 UTC, or '' when it cannot be read. */
export function parseFeedDate(text: string | undefined): string {
  const value = (text ?? '').trim().replace(/\s+/g, ' ');
  // No date is longer; a longer text is not worth running the patterns on.
  if (value === '' || value.length > MAX_DATE_LENGTH) return '';

  const iso = ISO.exec(value);
  if (iso) {
    const [, year, month, day, hh = '0', mm = '0', ss = '0', fraction = '0', zone = 'Z'] = iso;
    const offset = offsetOf(zone);
    if (offset === undefined) return '';
    const ms = Math.floor(Number(`0.${fraction}`) * 1000);
    return toIso(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hh),
      Number(mm),
      Number(ss),
      offset,
      ms,
    );
  }

  const rfc = RFC822.exec(value);
  if (rfc) {
    const [, day, monthName = '', year = '', hh, mm = '0', ss = '0', meridiem, zone = ''] = rfc;
    const month = monthOf(monthName);
    const offset = offsetOf(zone);
    if (month === undefined || offset === undefined) return '';
    return toIso(fullYear(year), month, Number(day), hours12(hh, meridiem), Number(mm), Number(ss), offset);
  }

  const us = MONTH_FIRST.exec(value);
  if (us) {
    const [, monthName = '', day, year = '', hh, mm = '0', ss = '0', meridiem, zone = ''] = us;
    const month = monthOf(monthName);
    const offset = offsetOf(zone);
    if (month === undefined || offset === undefined) return '';
    return toIso(Number(year), month, Number(day), hours12(hh, meridiem), Number(mm), Number(ss), offset);
  }
  return '';
}
