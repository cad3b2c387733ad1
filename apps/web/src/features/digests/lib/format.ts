import { type ScheduleType, WEEK_DAYS } from '@digest/contracts';

/** Display helpers for digests (SPEC §2 cards, §9 constants). Counts use `formatCount` of the contracts. */
export { formatCount } from '@digest/contracts';

const SCHEDULE_LABELS: Record<ScheduleType, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

export function scheduleTypeLabel(type: ScheduleType): string {
  return SCHEDULE_LABELS[type];
}

/** `HH:mm` (24-hour, stored) → `7:05 am` (SPEC §9: shown in 12-hour with am/pm). */
export function formatTime12(time: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!match) return time;
  const hours = Number(match[1]);
  const minutes = match[2];
  const suffix = hours < 12 ? 'am' : 'pm';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${minutes} ${suffix}`;
}

/** 1 → 1st, 2 → 2nd, 11 → 11th, 22 → 22nd (SPEC §9 month days 1st to 31st). */
export function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  switch (day % 10) {
    case 1:
      return `${day}st`;
    case 2:
      return `${day}nd`;
    case 3:
      return `${day}rd`;
    default:
      return `${day}th`;
  }
}

export function weekdayName(index: number): string {
  return WEEK_DAYS[index] ?? WEEK_DAYS[0];
}

export interface Schedule {
  scheduleType: ScheduleType;
  time: string;
  weekDay: number;
  monthDay: number;
}

/** The day part of a schedule: the weekday for weekly, the month day for monthly, nothing for daily. */
export function scheduleDay(schedule: Schedule): string | null {
  if (schedule.scheduleType === 'weekly') return weekdayName(schedule.weekDay);
  if (schedule.scheduleType === 'monthly') return `${ordinal(schedule.monthDay)} of the month`;
  return null;
}

/** 'Daily at 7:00 am', 'Weekly on Monday at 7:00 am', 'Monthly on the 1st at 7:00 am'. */
export function scheduleLine(schedule: Schedule): string {
  const time = formatTime12(schedule.time);
  if (schedule.scheduleType === 'weekly') return `Weekly on ${weekdayName(schedule.weekDay)} at ${time}`;
  if (schedule.scheduleType === 'monthly') return `Monthly on the ${ordinal(schedule.monthDay)} at ${time}`;
  return `Daily at ${time}`;
}
