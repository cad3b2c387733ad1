import type { Schedule } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { nextSendsView, placeOfZone } from './next-sends';

const daily = (time: string): Schedule => ({ scheduleType: 'daily', time, weekDay: 0, monthDay: 1 });
const weekly = (weekDay: number, time: string): Schedule => ({
  scheduleType: 'weekly',
  time,
  weekDay,
  monthDay: 1,
});
const monthly = (monthDay: number, time = '07:00'): Schedule => ({
  scheduleType: 'monthly',
  time,
  weekDay: 0,
  monthDay,
});

const view = (schedule: Schedule, zone: string, now: string, viewerTimeZone = zone) =>
  nextSendsView(schedule, zone, { now: new Date(now), viewerTimeZone, locale: 'en-US' });

describe('the next five sends, as the popup and the digest page write them', () => {
  it('London a week before the October change: clocks go back, the issue still comes at 7:00 am', () => {
    const sends = view(weekly(0, '07:00'), 'Europe/London', '2026-10-18T12:00:00Z');
    expect(sends?.lines.map((line) => line.when)).toEqual([
      'Sun, Oct 25, 7:00 am',
      'Sun, Nov 1, 7:00 am',
      'Sun, Nov 8, 7:00 am',
      'Sun, Nov 15, 7:00 am',
      'Sun, Nov 22, 7:00 am',
    ]);
    expect(sends?.lines.map((line) => line.notes)).toEqual([
      ['clocks go back on Sun, Oct 25: this issue still comes at 7:00 am your time'],
      [],
      [],
      [],
      [],
    ]);
    expect(sends?.lines.every((line) => line.yourTime === null)).toBe(true);
    expect(sends?.shortMonths).toBeNull();
  });

  it('New York a week before the November change, daily: the fifth send is after it', () => {
    const sends = view(daily('07:00'), 'America/New_York', '2026-10-27T15:00:00Z');
    expect(sends?.lines.map((line) => line.when)).toEqual([
      'Wed, Oct 28, 7:00 am',
      'Thu, Oct 29, 7:00 am',
      'Fri, Oct 30, 7:00 am',
      'Sat, Oct 31, 7:00 am',
      'Sun, Nov 1, 7:00 am',
    ]);
    expect(sends?.lines[4]?.notes).toEqual([
      'clocks go back on Sun, Nov 1: this issue still comes at 7:00 am your time',
    ]);
    expect(sends?.lines.slice(0, 4).flatMap((line) => line.notes)).toEqual([]);
  });

  it('a viewer in another zone sees each send in their time too, and the owner’s zone named', () => {
    const sends = view(weekly(0, '07:00'), 'America/New_York', '2026-10-25T16:00:00Z', 'Europe/London');
    expect(sends?.lines[0]).toEqual({
      key: '2026-11-01T12:00:00.000Z',
      when: 'Sun, Nov 1, 7:00 am',
      yourTime: 'Sun, Nov 1, 12:00 pm',
      notes: ['clocks go back in New York on Sun, Nov 1: this issue still comes at 7:00 am New York time'],
    });
    // 7:00 am in New York is 11:00 am in London only in the week when London has changed and New York not.
    const october = view(weekly(0, '07:00'), 'America/New_York', '2026-10-20T16:00:00Z', 'Europe/London');
    expect(october?.lines.map((line) => line.yourTime)).toEqual([
      'Sun, Oct 25, 11:00 am',
      'Sun, Nov 1, 12:00 pm',
      'Sun, Nov 8, 12:00 pm',
      'Sun, Nov 15, 12:00 pm',
      'Sun, Nov 22, 12:00 pm',
    ]);
  });

  it('Lord Howe moves its clocks by half an hour', () => {
    const sends = view(daily('07:00'), 'Australia/Lord_Howe', '2026-10-02T00:00:00Z');
    expect(sends?.lines.map((line) => line.notes)).toEqual([
      [],
      ['clocks go forward 30 minutes on Sun, Oct 4: this issue still comes at 7:00 am your time'],
      [],
      [],
      [],
    ]);
  });

  it('a time the clocks skip says so, and when the issue comes instead', () => {
    const sends = view(daily('02:30'), 'America/New_York', '2026-03-07T12:00:00Z');
    expect(sends?.lines[0]?.when).toBe('Sun, Mar 8, 3:00 am');
    expect(sends?.lines[0]?.notes).toEqual([
      'clocks go forward on Sun, Mar 8: 2:30 am does not exist that day, so this issue comes at 3:00 am your time',
    ]);
    expect(sends?.lines[1]?.when).toBe('Mon, Mar 9, 2:30 am');
  });

  it('monthly on the 31st says which months fall back to their last day', () => {
    const sends = view(monthly(31), 'America/New_York', '2026-04-01T00:00:00Z');
    expect(sends?.lines.map((line) => line.when)).toEqual([
      'Thu, Apr 30, 7:00 am',
      'Sun, May 31, 7:00 am',
      'Tue, Jun 30, 7:00 am',
      'Fri, Jul 31, 7:00 am',
      'Mon, Aug 31, 7:00 am',
    ]);
    expect(sends?.lines.map((line) => line.notes)).toEqual([
      ['April has 30 days: this issue comes on the 30th'],
      [],
      ['June has 30 days: this issue comes on the 30th'],
      [],
      [],
    ]);
    expect(sends?.shortMonths).toBe(
      "The 31st falls back to the month's last day on Apr 30, Jun 30, Sep 30, Nov 30 and Feb 28.",
    );
    expect(view(monthly(29), 'UTC', '2027-01-15T00:00:00Z')?.shortMonths).toBe(
      "The 29th falls back to the month's last day on Feb 28.",
    );
    expect(view(monthly(29), 'UTC', '2028-01-15T00:00:00Z')?.shortMonths).toBeNull();
    expect(view(monthly(28), 'UTC', '2027-01-15T00:00:00Z')?.shortMonths).toBeNull();
  });

  it('an unknown zone shows no list rather than failing', () => {
    expect(view(daily('07:00'), 'Mars/Olympus', '2026-04-01T00:00:00Z')).toBeNull();
  });

  it('names a zone by its place', () => {
    expect(placeOfZone('America/New_York')).toBe('New York');
    expect(placeOfZone('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(placeOfZone('UTC')).toBe('UTC');
  });
});
