import type { Schedule } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { isValidTimeZone, nextRunAfter, slotKey } from './next-run';

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

/** The next slot as an ISO string, for readable expectations. */
const next = (schedule: Schedule, zone: string, after: string) =>
  nextRunAfter(schedule, zone, new Date(after)).toISOString();

describe('a local time inside a spring-forward gap runs at the first instant after the gap', () => {
  it('New York 2026-03-08: 02:30 runs at 03:00 EDT', () => {
    expect(next(daily('02:30'), 'America/New_York', '2026-03-08T00:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
  });

  it('London 2026-03-29 (gap 01:00–02:00): 01:30 runs at 02:00 BST, 02:30 exists and runs as is', () => {
    expect(next(daily('01:30'), 'Europe/London', '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
    expect(next(daily('02:30'), 'Europe/London', '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('Lord Howe 2026-10-04 (30-minute gap 02:00–02:30): 02:15 runs at 02:30 +11, as does 02:30', () => {
    expect(next(daily('02:15'), 'Australia/Lord_Howe', '2026-10-03T00:00:00Z')).toBe(
      '2026-10-03T15:30:00.000Z',
    );
    expect(next(daily('02:30'), 'Australia/Lord_Howe', '2026-10-03T00:00:00Z')).toBe(
      '2026-10-03T15:30:00.000Z',
    );
  });

  it('Chatham 2026-09-27 (gap 02:45–03:45): 03:00 runs at 03:45 +13:45, 02:30 runs as is', () => {
    expect(next(daily('03:00'), 'Pacific/Chatham', '2026-09-26T00:00:00Z')).toBe('2026-09-26T14:00:00.000Z');
    expect(next(daily('02:30'), 'Pacific/Chatham', '2026-09-26T00:00:00Z')).toBe('2026-09-26T13:45:00.000Z');
  });

  it('Kolkata has no gap: 02:30 is 21:00Z of the day before (+05:30)', () => {
    expect(next(daily('02:30'), 'Asia/Kolkata', '2026-03-08T00:00:00Z')).toBe('2026-03-08T21:00:00.000Z');
  });
});

describe('a local time that occurs twice (fall-back overlap) runs once, at its first occurrence', () => {
  it('New York 2026-11-01: 01:30 runs at 01:30 EDT; the next slot is the next day, not an hour later', () => {
    expect(next(daily('01:30'), 'America/New_York', '2026-11-01T00:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(next(daily('01:30'), 'America/New_York', '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z');
    // Between the two occurrences: the second 01:30 (06:30Z) is not a slot.
    expect(next(daily('01:30'), 'America/New_York', '2026-11-01T06:00:00Z')).toBe('2026-11-02T06:30:00.000Z');
  });

  it('London 2026-10-25: 01:30 runs at 01:30 BST, then 01:30 GMT the next day', () => {
    expect(next(daily('01:30'), 'Europe/London', '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next(daily('01:30'), 'Europe/London', '2026-10-25T00:30:00Z')).toBe('2026-10-26T01:30:00.000Z');
  });

  it('Lord Howe 2026-04-05 (30-minute overlap 01:30–02:00): 01:45 runs at +11 once', () => {
    expect(next(daily('01:45'), 'Australia/Lord_Howe', '2026-04-04T00:00:00Z')).toBe(
      '2026-04-04T14:45:00.000Z',
    );
    expect(next(daily('01:45'), 'Australia/Lord_Howe', '2026-04-04T14:45:00Z')).toBe(
      '2026-04-05T15:15:00.000Z',
    );
    expect(next(daily('01:30'), 'Australia/Lord_Howe', '2026-04-04T00:00:00Z')).toBe(
      '2026-04-04T14:30:00.000Z',
    );
    expect(next(daily('01:30'), 'Australia/Lord_Howe', '2026-04-04T14:30:00Z')).toBe(
      '2026-04-05T15:00:00.000Z',
    );
  });

  it('Chatham 2026-04-05 (overlap 02:45–03:45): 03:00 runs at +13:45 once; 01:30 is not doubled', () => {
    expect(next(daily('03:00'), 'Pacific/Chatham', '2026-04-04T00:00:00Z')).toBe('2026-04-04T13:15:00.000Z');
    expect(next(daily('03:00'), 'Pacific/Chatham', '2026-04-04T13:15:00Z')).toBe('2026-04-05T14:15:00.000Z');
    expect(next(daily('01:30'), 'Pacific/Chatham', '2026-04-04T00:00:00Z')).toBe('2026-04-04T11:45:00.000Z');
    expect(next(daily('01:30'), 'Pacific/Chatham', '2026-04-04T11:45:00Z')).toBe('2026-04-05T12:45:00.000Z');
  });
});

describe('a monthly day 29–31 in a shorter month runs on its last day', () => {
  it('February 2028 (leap year): the 29th, 30th and 31st run on the 29th', () => {
    for (const day of [29, 30, 31]) {
      expect(next(monthly(day), 'Europe/London', '2028-02-01T00:00:00Z')).toBe('2028-02-29T07:00:00.000Z');
    }
  });

  it('February 2026 and 2027 (common years): the 29th, 30th and 31st run on the 28th', () => {
    for (const day of [29, 30, 31]) {
      expect(next(monthly(day), 'Europe/London', '2026-02-01T00:00:00Z')).toBe('2026-02-28T07:00:00.000Z');
      expect(next(monthly(day), 'Europe/London', '2027-02-01T00:00:00Z')).toBe('2027-02-28T07:00:00.000Z');
    }
  });

  it('30-day months: the 31st runs on the 30th, the 30th and 29th on their own day', () => {
    expect(next(monthly(31), 'America/New_York', '2026-04-01T00:00:00Z')).toBe('2026-04-30T11:00:00.000Z');
    expect(next(monthly(30), 'America/New_York', '2026-04-01T00:00:00Z')).toBe('2026-04-30T11:00:00.000Z');
    expect(next(monthly(29), 'America/New_York', '2026-04-01T00:00:00Z')).toBe('2026-04-29T11:00:00.000Z');
    expect(next(monthly(31), 'Asia/Kolkata', '2026-09-01T00:00:00Z')).toBe('2026-09-30T01:30:00.000Z');
  });

  it('a month after a shortened one runs on the chosen day again', () => {
    expect(next(monthly(31), 'Europe/London', '2026-02-28T07:00:00Z')).toBe('2026-03-31T06:00:00.000Z');
    expect(next(monthly(31), 'Europe/London', '2026-12-31T07:00:00Z')).toBe('2027-01-31T07:00:00.000Z');
  });

  it('a monthly day already past this month runs next month', () => {
    expect(next(monthly(1), 'Pacific/Chatham', '2026-06-02T00:00:00Z')).toBe('2026-06-30T18:15:00.000Z');
  });
});

describe('a weekly slot keeps its local time across a daylight-saving change', () => {
  it('New York: Sunday 07:00 is 12:00Z on 2026-03-01 and 11:00Z on 2026-03-08', () => {
    const first = next(weekly(0, '07:00'), 'America/New_York', '2026-02-28T00:00:00Z');
    expect(first).toBe('2026-03-01T12:00:00.000Z');
    expect(next(weekly(0, '07:00'), 'America/New_York', first)).toBe('2026-03-08T11:00:00.000Z');
  });

  it('London: Monday 09:00 is 08:00Z on 2026-10-19 and 09:00Z on 2026-10-26', () => {
    const first = next(weekly(1, '09:00'), 'Europe/London', '2026-10-18T00:00:00Z');
    expect(first).toBe('2026-10-19T08:00:00.000Z');
    expect(next(weekly(1, '09:00'), 'Europe/London', first)).toBe('2026-10-26T09:00:00.000Z');
  });

  it('a weekday later the same week runs that week; an earlier one runs the next week', () => {
    // 2026-06-03 is a Wednesday.
    expect(next(weekly(5, '07:00'), 'UTC', '2026-06-03T12:00:00Z')).toBe('2026-06-05T07:00:00.000Z');
    expect(next(weekly(1, '07:00'), 'UTC', '2026-06-03T12:00:00Z')).toBe('2026-06-08T07:00:00.000Z');
  });
});

describe('the next slot is strictly after the given instant', () => {
  it('an instant exactly on a slot answers the following slot', () => {
    expect(next(daily('07:00'), 'Asia/Kolkata', '2026-06-01T01:30:00Z')).toBe('2026-06-02T01:30:00.000Z');
    expect(next(weekly(3, '07:00'), 'UTC', '2026-06-03T07:00:00Z')).toBe('2026-06-10T07:00:00.000Z');
    expect(next(monthly(15), 'UTC', '2026-06-15T07:00:00Z')).toBe('2026-07-15T07:00:00.000Z');
  });

  it('one millisecond before a slot answers that slot', () => {
    expect(next(daily('07:00'), 'Asia/Kolkata', '2026-06-01T01:29:59.999Z')).toBe('2026-06-01T01:30:00.000Z');
  });
});

const MATRIX = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'UTC',
];

/** Local date and time of an instant through Intl, independently of the code under test. */
function localParts(zone: string) {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (instant: Date) => {
    const part = (type: string) => format.formatToParts(instant).find((p) => p.type === type)?.value;
    return {
      date: `${part('year')}-${part('month')}-${part('day')}`,
      time: `${part('hour')}:${part('minute')}`,
    };
  };
}

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

describe('daily slots: 400 in a row are strictly increasing, exactly one per local day', () => {
  for (const zone of MATRIX) {
    it(`in ${zone}, at times inside and outside its gaps and overlaps`, () => {
      const local = localParts(zone);
      for (const time of ['00:00', '01:30', '02:15', '02:30', '03:00', '23:59']) {
        let slot = nextRunAfter(daily(time), zone, new Date('2026-01-01T00:00:00Z'));
        for (let i = 1; i < 400; i += 1) {
          const following = nextRunAfter(daily(time), zone, slot);
          expect(following.getTime()).toBeGreaterThan(slot.getTime());
          expect(local(following).date).toBe(dayAfter(local(slot).date));
          // The local time is the schedule's, except at the end of a gap that swallowed it.
          const shown = local(following).time;
          if (shown !== time) {
            expect(shown > time && local(new Date(following.getTime() - 60_000)).time < time).toBe(true);
          }
          slot = following;
        }
      }
    });
  }
});

describe('time zones', () => {
  it('an unknown time zone throws a clear error', () => {
    expect(() => nextRunAfter(daily('07:00'), 'Mars/Olympus', new Date())).toThrow(
      'Unknown time zone "Mars/Olympus": expected an IANA name such as Europe/London',
    );
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('Pacific/Chatham')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
  });
});

describe('slot keys', () => {
  it('join the digest id and the slot instant, so one slot of one digest has one key', () => {
    expect(slotKey('d-1', new Date('2026-03-08T07:00:00Z'))).toBe('d-1:2026-03-08T07:00:00.000Z');
  });
});
