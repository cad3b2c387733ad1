import { describe, expect, it } from 'vitest';
import { isDigestLimitReached } from '../api/use-digests';
import { formatCount, formatTime12, ordinal, scheduleDay, scheduleLine } from './format';

describe('digest card texts', () => {
  it('shows times in 12-hour form with am/pm (SPEC §9)', () => {
    expect(formatTime12('00:00')).toBe('12:00 am');
    expect(formatTime12('07:00')).toBe('7:00 am');
    expect(formatTime12('11:55')).toBe('11:55 am');
    expect(formatTime12('12:05')).toBe('12:05 pm');
    expect(formatTime12('23:30')).toBe('11:30 pm');
  });

  it('names month days 1st to 31st', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '31st',
    ]);
  });

  it('shows the weekday for weekly digests and the month day for monthly ones', () => {
    const base = { time: '07:00', weekDay: 1, monthDay: 15 };
    expect(scheduleDay({ ...base, scheduleType: 'daily' })).toBeNull();
    expect(scheduleDay({ ...base, scheduleType: 'weekly' })).toBe('Monday');
    expect(scheduleDay({ ...base, scheduleType: 'monthly' })).toBe('15th of the month');
    expect(scheduleLine({ ...base, scheduleType: 'daily' })).toBe('Daily at 7:00 am');
    expect(scheduleLine({ ...base, weekDay: 0, scheduleType: 'weekly' })).toBe('Weekly on Sunday at 7:00 am');
    expect(scheduleLine({ ...base, time: '18:45', scheduleType: 'monthly' })).toBe(
      'Monthly on the 15th at 6:45 pm',
    );
  });

  it('writes subscriber counts above 1,000 as K and above 1,000,000 as M (SPEC §9)', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1500)).toBe('1.5K');
    expect(formatCount(2_400_000)).toBe('2.4M');
  });

  it("disables 'Create digest' once the user has more than 99 digests (SPEC §5)", () => {
    expect(isDigestLimitReached(99)).toBe(false);
    expect(isDigestLimitReached(100)).toBe(true);
  });
});
