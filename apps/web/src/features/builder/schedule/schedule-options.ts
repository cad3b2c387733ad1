import type { User } from '@digest/contracts';
import { ISSUE_RETENTION_OPTIONS, SCHEDULE_TYPE_OPTIONS, WEEK_DAYS } from '@digest/contracts';
import type { SelectOption } from '#web/components/ui/SelectField';
import { formatTime12, ordinal } from '#web/features/digests';
import { browserTimeZone, type TimeZoneOption, timeZoneOptions } from '#web/features/profile';

/** docs/product.md §9: a time every 5 minutes across the day. */
export const TIME_STEP_MINUTES = 5;
const MINUTES_PER_DAY = 24 * 60;
const DAYS_IN_LONGEST_MONTH = 31;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** Every 5 minutes from midnight, stored 'HH:mm' and shown '7:05 pm' (docs/product.md §9). */
export const TIME_OPTIONS: readonly SelectOption[] = Array.from(
  { length: MINUTES_PER_DAY / TIME_STEP_MINUTES },
  (_, index) => {
    const minutes = index * TIME_STEP_MINUTES;
    const value = `${twoDigits(Math.floor(minutes / 60))}:${twoDigits(minutes % 60)}`;
    return { value, label: formatTime12(value) };
  },
);

export const FREQUENCY_OPTIONS: readonly SelectOption[] = SCHEDULE_TYPE_OPTIONS;

/** Sunday..Saturday, valued by the index the digest stores (docs/product.md §3). */
export const WEEK_DAY_OPTIONS: readonly SelectOption[] = WEEK_DAYS.map((day, index) => ({
  value: String(index),
  label: day,
}));

/** '1st'..'31st' (docs/product.md §9). */
export const MONTH_DAY_OPTIONS: readonly SelectOption[] = Array.from(
  { length: DAYS_IN_LONGEST_MONTH },
  (_, index) => ({ value: String(index + 1), label: ordinal(index + 1) }),
);

/** A month to two years, valued by the months the digest stores (docs/product.md §3 "Issue retention"). */
export const RETENTION_OPTIONS: readonly SelectOption[] = ISSUE_RETENTION_OPTIONS.map(({ value, label }) => ({
  value: String(value),
  label,
}));

/** The zone the popup starts with: the profile's, else the browser's guess (docs/product.md §4 "Default timezone"). */
export function initialTimeZone(user: Pick<User, 'timezone'>): string {
  return user.timezone?.timezone ?? browserTimeZone();
}

/** True when the chosen zone must be saved to the profile first: schedules run in the owner's zone. */
export function timeZoneChanged(user: Pick<User, 'timezone'>, zone: string): boolean {
  return user.timezone?.timezone !== zone;
}

/** Every zone sorted by offset (docs/product.md §9), with the saved and the guessed zone sure to be among them. */
export function scheduleZoneOptions(user: Pick<User, 'timezone'>, at?: Date): TimeZoneOption[] {
  return timeZoneOptions([user.timezone?.timezone ?? '', browserTimeZone()], at);
}
