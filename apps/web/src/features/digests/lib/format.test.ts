import type { LastRun } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { isDigestLimitReached } from '../api/use-digests';
import {
  formatCount,
  formatTime12,
  missedIssueText,
  nextIssueText,
  ordinal,
  PAUSED_TEXT,
  scheduleDay,
  scheduleLine,
} from './format';

describe('digest card texts', () => {
  it('shows times in 12-hour form with am/pm (docs/product.md §9)', () => {
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

  it('writes subscriber counts above 1,000 as K and above 1,000,000 as M (docs/product.md §9)', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1500)).toBe('1.5K');
    expect(formatCount(2_400_000)).toBe('2.4M');
  });

  it("disables 'Create digest' once the user has more than 99 digests (docs/product.md §5)", () => {
    expect(isDigestLimitReached(99)).toBe(false);
    expect(isDigestLimitReached(100)).toBe(true);
  });
});

describe('when the next issue goes out', () => {
  // ICU may put a narrow no-break space before AM/PM; the words are what matters here.
  const text = (...args: Parameters<typeof nextIssueText>) => nextIssueText(...args).replace(/\s/g, ' ');
  const inNewYork = { browserTimeZone: 'America/New_York', locale: 'en-US' };

  it("reads 'Paused' while the digest has no next issue", () => {
    expect(nextIssueText(null, 'America/New_York', inNewYork)).toBe(PAUSED_TEXT);
    expect(PAUSED_TEXT).toBe('Paused');
  });

  it("shows the owner's local time, without the zone when the viewer is in it", () => {
    expect(text('2026-11-24T12:00:00Z', 'America/New_York', inNewYork)).toBe(
      'Next issue Tue, Nov 24, 7:00 am',
    );
    // After the spring-forward change the same wall time is an hour earlier in UTC.
    expect(text('2026-03-08T11:00:00Z', 'America/New_York', inNewYork)).toBe(
      'Next issue Sun, Mar 8, 7:00 am',
    );
  });

  it("names the owner's zone when the viewer is elsewhere, keeping the owner's wall time", () => {
    expect(
      text('2026-11-24T12:00:00Z', 'America/New_York', { browserTimeZone: 'Europe/Warsaw', locale: 'en-US' }),
    ).toBe('Next issue Tue, Nov 24, 7:00 am (America/New_York)');
    expect(text('2026-06-01T01:30:00Z', 'Asia/Kolkata', inNewYork)).toBe(
      'Next issue Mon, Jun 1, 7:00 am (Asia/Kolkata)',
    );
  });

  it("uses the owner's date, which can differ from the UTC date", () => {
    // 07:00 on 1 July in Chatham (+12:45) is 18:15Z on 30 June.
    expect(text('2026-06-30T18:15:00Z', 'Pacific/Chatham', inNewYork)).toBe(
      'Next issue Wed, Jul 1, 7:00 am (Pacific/Chatham)',
    );
  });
});

describe('missedIssueText (why the latest scheduled issue did not go out)', () => {
  const run = (status: LastRun['status'], reason: string | null = null): LastRun => ({
    slot: '2026-11-22T12:00:00.000Z',
    status,
    reason,
  });

  it('says nothing when the issue went out or is being built, or before the first slot', () => {
    expect(missedIssueText(null, 'America/New_York', 'en-US')).toBeNull();
    expect(missedIssueText(run('built'), 'America/New_York', 'en-US')).toBeNull();
    expect(missedIssueText(run('queued'), 'America/New_York', 'en-US')).toBeNull();
  });

  it("names the slot on the owner's wall clock and the reason", () => {
    expect(
      missedIssueText(run('empty', 'Nothing to send: 3 of 3 sources failed.'), 'America/New_York', 'en-US'),
    ).toBe('The issue of Sun, Nov 22, 7:00 am was not sent: Nothing to send: 3 of 3 sources failed.');
    expect(missedIssueText(run('failed'), 'Europe/London', 'en-US')).toBe(
      'The issue of Sun, Nov 22, 12:00 pm was not sent: it could not be built.',
    );
  });
});
