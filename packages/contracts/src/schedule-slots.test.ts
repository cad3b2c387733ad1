import { describe, expect, it } from 'vitest';
import type { Schedule } from './digests';
import { monthsOnLastDay, nextRunAfter, nextSends } from './schedule-slots';
import { isIanaTimeZone } from './users';

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

/**
 * The scheduler's next slot and the five sends the schedule popup lists, checked on one case: the list starts
 * with the scheduler's slot and goes on with the given four.
 */
function expectSends(schedule: Schedule, zone: string, after: string, five: readonly string[]) {
  const expected = five.map((iso) => new Date(iso).toISOString());
  expect(next(schedule, zone, after)).toBe(expected[0]);
  const listed = nextSends(schedule, zone, new Date(after)).map((send) => send.at.toISOString());
  expect(listed).toEqual(expected);
}

/** Five ISO instants at one time of day on the given dates. */
const at = (time: string, dates: readonly string[]) => dates.map((date) => `${date}T${time}Z`);

describe('a local time inside a spring-forward gap runs at the first instant after the gap', () => {
  it('New York 2026-03-08: 02:30 runs at 03:00 EDT, then at 02:30 EDT', () => {
    expectSends(daily('02:30'), 'America/New_York', '2026-03-08T00:00:00Z', [
      '2026-03-08T07:00:00Z',
      ...at('06:30:00', ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12']),
    ]);
  });

  it('London 2026-03-29 (gap 01:00–02:00): 01:30 runs at 02:00 BST, 02:30 exists and runs as is', () => {
    expectSends(daily('01:30'), 'Europe/London', '2026-03-28T12:00:00Z', [
      '2026-03-29T01:00:00Z',
      ...at('00:30:00', ['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02']),
    ]);
    expectSends(
      daily('02:30'),
      'Europe/London',
      '2026-03-28T12:00:00Z',
      at('01:30:00', ['2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02']),
    );
  });

  it('Lord Howe 2026-10-04 (30-minute gap 02:00–02:30): 02:15 runs at 02:30 +11, as does 02:30', () => {
    expectSends(daily('02:15'), 'Australia/Lord_Howe', '2026-10-03T00:00:00Z', [
      '2026-10-03T15:30:00Z',
      ...at('15:15:00', ['2026-10-04', '2026-10-05', '2026-10-06', '2026-10-07']),
    ]);
    expectSends(
      daily('02:30'),
      'Australia/Lord_Howe',
      '2026-10-03T00:00:00Z',
      at('15:30:00', ['2026-10-03', '2026-10-04', '2026-10-05', '2026-10-06', '2026-10-07']),
    );
  });

  it('Chatham 2026-09-27 (gap 02:45–03:45): 03:00 runs at 03:45 +13:45, 02:30 runs as is', () => {
    expectSends(daily('03:00'), 'Pacific/Chatham', '2026-09-26T00:00:00Z', [
      '2026-09-26T14:00:00Z',
      ...at('13:15:00', ['2026-09-27', '2026-09-28', '2026-09-29', '2026-09-30']),
    ]);
    expectSends(daily('02:30'), 'Pacific/Chatham', '2026-09-26T00:00:00Z', [
      '2026-09-26T13:45:00Z',
      ...at('12:45:00', ['2026-09-27', '2026-09-28', '2026-09-29', '2026-09-30']),
    ]);
  });

  it('Kolkata has no gap: 02:30 is 21:00Z of the day before (+05:30)', () => {
    expectSends(
      daily('02:30'),
      'Asia/Kolkata',
      '2026-03-08T00:00:00Z',
      at('21:00:00', ['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12']),
    );
  });
});

describe('a local time that occurs twice (fall-back overlap) runs once, at its first occurrence', () => {
  it('New York 2026-11-01: 01:30 runs at 01:30 EDT; the next slot is the next day, not an hour later', () => {
    expectSends(daily('01:30'), 'America/New_York', '2026-11-01T00:00:00Z', [
      '2026-11-01T05:30:00Z',
      ...at('06:30:00', ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']),
    ]);
    const fromNextDay = at('06:30:00', [
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
    ]);
    expectSends(daily('01:30'), 'America/New_York', '2026-11-01T05:30:00Z', fromNextDay);
    // Between the two occurrences: the second 01:30 (06:30Z) is not a slot.
    expectSends(daily('01:30'), 'America/New_York', '2026-11-01T06:00:00Z', fromNextDay);
  });

  it('London 2026-10-25: 01:30 runs at 01:30 BST, then 01:30 GMT the next day', () => {
    expectSends(daily('01:30'), 'Europe/London', '2026-10-24T12:00:00Z', [
      '2026-10-25T00:30:00Z',
      ...at('01:30:00', ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29']),
    ]);
    expectSends(
      daily('01:30'),
      'Europe/London',
      '2026-10-25T00:30:00Z',
      at('01:30:00', ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30']),
    );
  });

  it('Lord Howe 2026-04-05 (30-minute overlap 01:30–02:00): 01:45 runs at +11 once', () => {
    expectSends(daily('01:45'), 'Australia/Lord_Howe', '2026-04-04T00:00:00Z', [
      '2026-04-04T14:45:00Z',
      ...at('15:15:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08']),
    ]);
    expectSends(
      daily('01:45'),
      'Australia/Lord_Howe',
      '2026-04-04T14:45:00Z',
      at('15:15:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09']),
    );
    expectSends(daily('01:30'), 'Australia/Lord_Howe', '2026-04-04T00:00:00Z', [
      '2026-04-04T14:30:00Z',
      ...at('15:00:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08']),
    ]);
    expectSends(
      daily('01:30'),
      'Australia/Lord_Howe',
      '2026-04-04T14:30:00Z',
      at('15:00:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09']),
    );
  });

  it('Chatham 2026-04-05 (overlap 02:45–03:45): 03:00 runs at +13:45 once; 01:30 is not doubled', () => {
    expectSends(daily('03:00'), 'Pacific/Chatham', '2026-04-04T00:00:00Z', [
      '2026-04-04T13:15:00Z',
      ...at('14:15:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08']),
    ]);
    expectSends(
      daily('03:00'),
      'Pacific/Chatham',
      '2026-04-04T13:15:00Z',
      at('14:15:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09']),
    );
    expectSends(daily('01:30'), 'Pacific/Chatham', '2026-04-04T00:00:00Z', [
      '2026-04-04T11:45:00Z',
      ...at('12:45:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08']),
    ]);
    expectSends(
      daily('01:30'),
      'Pacific/Chatham',
      '2026-04-04T11:45:00Z',
      at('12:45:00', ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09']),
    );
  });
});

describe('a monthly day 29–31 in a shorter month runs on its last day', () => {
  /** February's send, then March to June at 07:00 BST (06:00Z), April and June cut to their 30 days. */
  const fromFebruary = (year: number, february: number, day: number) => [
    `${year}-02-${february}T07:00:00Z`,
    ...at('06:00:00', [
      `${year}-03-${day}`,
      `${year}-04-${Math.min(day, 30)}`,
      `${year}-05-${day}`,
      `${year}-06-${Math.min(day, 30)}`,
    ]),
  ];

  it('February 2028 (leap year): the 29th, 30th and 31st run on the 29th', () => {
    for (const day of [29, 30, 31]) {
      expectSends(monthly(day), 'Europe/London', '2028-02-01T00:00:00Z', fromFebruary(2028, 29, day));
    }
  });

  it('February 2026 and 2027 (common years): the 29th, 30th and 31st run on the 28th', () => {
    for (const day of [29, 30, 31]) {
      expectSends(monthly(day), 'Europe/London', '2026-02-01T00:00:00Z', fromFebruary(2026, 28, day));
      expectSends(monthly(day), 'Europe/London', '2027-02-01T00:00:00Z', fromFebruary(2027, 28, day));
    }
  });

  it('30-day months: the 31st runs on the 30th, the 30th and 29th on their own day', () => {
    const months = ['04', '05', '06', '07', '08'];
    expectSends(
      monthly(31),
      'America/New_York',
      '2026-04-01T00:00:00Z',
      at('11:00:00', ['2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31', '2026-08-31']),
    );
    expectSends(
      monthly(30),
      'America/New_York',
      '2026-04-01T00:00:00Z',
      at(
        '11:00:00',
        months.map((month) => `2026-${month}-30`),
      ),
    );
    expectSends(
      monthly(29),
      'America/New_York',
      '2026-04-01T00:00:00Z',
      at(
        '11:00:00',
        months.map((month) => `2026-${month}-29`),
      ),
    );
    expectSends(
      monthly(31),
      'Asia/Kolkata',
      '2026-09-01T00:00:00Z',
      at('01:30:00', ['2026-09-30', '2026-10-31', '2026-11-30', '2026-12-31', '2027-01-31']),
    );
  });

  it('a month after a shortened one runs on the chosen day again', () => {
    expectSends(
      monthly(31),
      'Europe/London',
      '2026-02-28T07:00:00Z',
      at('06:00:00', ['2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31']),
    );
    expectSends(monthly(31), 'Europe/London', '2026-12-31T07:00:00Z', [
      ...at('07:00:00', ['2027-01-31', '2027-02-28']),
      ...at('06:00:00', ['2027-03-31', '2027-04-30', '2027-05-31']),
    ]);
  });

  it('a monthly day already past this month runs next month', () => {
    // Chatham's clocks go forward on 2026-09-27: October's 07:00 is an hour earlier in UTC.
    expectSends(monthly(1), 'Pacific/Chatham', '2026-06-02T00:00:00Z', [
      ...at('18:15:00', ['2026-06-30', '2026-07-31', '2026-08-31']),
      ...at('17:15:00', ['2026-09-30', '2026-10-31']),
    ]);
  });
});

describe('a weekly slot keeps its local time across a daylight-saving change', () => {
  it('New York: Sunday 07:00 is 12:00Z on 2026-03-01 and 11:00Z on 2026-03-08', () => {
    const first = next(weekly(0, '07:00'), 'America/New_York', '2026-02-28T00:00:00Z');
    expectSends(weekly(0, '07:00'), 'America/New_York', '2026-02-28T00:00:00Z', [
      '2026-03-01T12:00:00Z',
      ...at('11:00:00', ['2026-03-08', '2026-03-15', '2026-03-22', '2026-03-29']),
    ]);
    expectSends(
      weekly(0, '07:00'),
      'America/New_York',
      first,
      at('11:00:00', ['2026-03-08', '2026-03-15', '2026-03-22', '2026-03-29', '2026-04-05']),
    );
  });

  it('London: Monday 09:00 is 08:00Z on 2026-10-19 and 09:00Z on 2026-10-26', () => {
    expectSends(weekly(1, '09:00'), 'Europe/London', '2026-10-18T00:00:00Z', [
      '2026-10-19T08:00:00Z',
      ...at('09:00:00', ['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16']),
    ]);
  });

  it('a weekday later the same week runs that week; an earlier one runs the next week', () => {
    // 2026-06-03 is a Wednesday.
    expectSends(
      weekly(5, '07:00'),
      'UTC',
      '2026-06-03T12:00:00Z',
      at('07:00:00', ['2026-06-05', '2026-06-12', '2026-06-19', '2026-06-26', '2026-07-03']),
    );
    expectSends(
      weekly(1, '07:00'),
      'UTC',
      '2026-06-03T12:00:00Z',
      at('07:00:00', ['2026-06-08', '2026-06-15', '2026-06-22', '2026-06-29', '2026-07-06']),
    );
  });
});

describe('the next slot is strictly after the given instant', () => {
  it('an instant exactly on a slot answers the following slot', () => {
    expectSends(
      daily('07:00'),
      'Asia/Kolkata',
      '2026-06-01T01:30:00Z',
      at('01:30:00', ['2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06']),
    );
    expectSends(
      weekly(3, '07:00'),
      'UTC',
      '2026-06-03T07:00:00Z',
      at('07:00:00', ['2026-06-10', '2026-06-17', '2026-06-24', '2026-07-01', '2026-07-08']),
    );
    expectSends(
      monthly(15),
      'UTC',
      '2026-06-15T07:00:00Z',
      at('07:00:00', ['2026-07-15', '2026-08-15', '2026-09-15', '2026-10-15', '2026-11-15']),
    );
  });

  it('one millisecond before a slot answers that slot', () => {
    expectSends(
      daily('07:00'),
      'Asia/Kolkata',
      '2026-06-01T01:29:59.999Z',
      at('01:30:00', ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05']),
    );
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

/** Minutes east of UTC through Intl's `longOffset` name ('GMT+10:30'), independently of the code under test. */
function offsetOf(zone: string) {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  return (instant: number) => {
    const name = format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
    const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
    if (!match) throw new Error(`Unexpected offset name ${name}`);
    const minutes = Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
    return match[1] === '-' ? -minutes : minutes;
  };
}

describe('daily slots: 400 in a row are strictly increasing, exactly one per local day', () => {
  for (const zone of MATRIX) {
    it(`in ${zone}, at times inside and outside its gaps and overlaps, listed as the scheduler runs them`, () => {
      const local = localParts(zone);
      for (const time of ['00:00', '01:30', '02:15', '02:30', '03:00', '23:59']) {
        const sends = nextSends(daily(time), zone, new Date('2026-01-01T00:00:00Z'), 400);
        expect(sends[0]?.at).toEqual(nextRunAfter(daily(time), zone, new Date('2026-01-01T00:00:00Z')));
        for (let i = 1; i < 400; i += 1) {
          const slot = sends[i - 1]?.at as Date;
          const following = sends[i]?.at as Date;
          // The list is the scheduler's slots one after another.
          expect(following).toEqual(nextRunAfter(daily(time), zone, slot));
          expect(following.getTime()).toBeGreaterThan(slot.getTime());
          expect(local(following).date).toBe(dayAfter(local(slot).date));
          // The local time is the schedule's, except at the end of a gap that swallowed it, which is told.
          const shown = local(following).time;
          expect(sends[i]?.timeSkipped).toBe(shown !== time);
          if (shown !== time) {
            expect(shown > time && local(new Date(following.getTime() - 60_000)).time < time).toBe(true);
          }
        }
      }
    });
  }
});

describe('the listed sends tell every clock change on the way, and each month too short for the day', () => {
  const schedules = [weekly(0, '01:30'), weekly(3, '02:15'), monthly(31, '02:30'), monthly(29, '00:15')];
  for (const zone of MATRIX) {
    it(`in ${zone}, from instants all through 2026`, () => {
      const offset = offsetOf(zone);
      const local = localParts(zone);
      for (
        let after = Date.parse('2026-01-01T07:00:00Z');
        after < Date.parse('2027-01-01');
        after += 5.3 * 86_400_000
      ) {
        for (const schedule of schedules) {
          let previous = after;
          for (const send of nextSends(schedule, zone, new Date(after))) {
            expect(send.at).toEqual(nextRunAfter(schedule, zone, new Date(previous)));
            // The changes told add up to the change of offset since the previous send…
            const moved = send.clockChanges.reduce(
              (sum, change) => sum + (change.direction === 'forward' ? change.minutes : -change.minutes),
              0,
            );
            expect(moved).toBe(offset(send.at.getTime()) - offset(previous));
            // …and each is where the offset really changes, in the window.
            for (const change of send.clockChanges) {
              const instant = change.at.getTime();
              expect(instant > previous && instant <= send.at.getTime()).toBe(true);
              expect(offset(instant)).not.toBe(offset(instant - 1));
            }
            if (schedule.scheduleType === 'monthly') {
              const day = Number(local(send.at).date.slice(8));
              expect(send.lastDayOfMonth).toBe(day < schedule.monthDay ? day : null);
              if (day < schedule.monthDay) expect(dayAfter(local(send.at).date).slice(8)).toBe('01');
            } else {
              expect(send.lastDayOfMonth).toBeNull();
            }
            previous = send.at.getTime();
          }
        }
      }
    });
  }
});

describe('what the listed sends say', () => {
  it('New York a week before the November change: the Sunday issue after it says the clocks go back', () => {
    const sends = nextSends(weekly(0, '07:00'), 'America/New_York', new Date('2026-10-25T16:00:00Z'));
    expect(sends.map((send) => send.at.toISOString())).toEqual(
      at('12:00:00.000', ['2026-11-01', '2026-11-08', '2026-11-15', '2026-11-22', '2026-11-29']),
    );
    expect(sends[0]?.clockChanges).toEqual([
      { at: new Date('2026-11-01T06:00:00Z'), direction: 'back', minutes: 60 },
    ]);
    expect(sends.slice(1).every((send) => send.clockChanges.length === 0)).toBe(true);
    expect(sends.every((send) => !send.timeSkipped && send.lastDayOfMonth === null)).toBe(true);
  });

  it('a time the clocks skip is told on the day they go forward, at the end of the gap', () => {
    const [first, second] = nextSends(daily('02:30'), 'America/New_York', new Date('2026-03-07T12:00:00Z'));
    expect(first).toEqual({
      at: new Date('2026-03-08T07:00:00Z'),
      clockChanges: [{ at: new Date('2026-03-08T07:00:00Z'), direction: 'forward', minutes: 60 }],
      timeSkipped: true,
      lastDayOfMonth: null,
    });
    expect(second).toEqual({
      at: new Date('2026-03-09T06:30:00Z'),
      clockChanges: [],
      timeSkipped: false,
      lastDayOfMonth: null,
    });
  });

  it('Lord Howe moves its clocks by 30 minutes, forward in October and back in April', () => {
    const october = nextSends(daily('07:00'), 'Australia/Lord_Howe', new Date('2026-10-02T00:00:00Z'), 2);
    expect(october.map((send) => send.at.toISOString())).toEqual([
      '2026-10-02T20:30:00.000Z',
      '2026-10-03T20:00:00.000Z',
    ]);
    expect(october[1]?.clockChanges).toEqual([
      { at: new Date('2026-10-03T15:30:00Z'), direction: 'forward', minutes: 30 },
    ]);
    const april = nextSends(daily('07:00'), 'Australia/Lord_Howe', new Date('2026-04-03T00:00:00Z'), 2);
    expect(april[1]?.clockChanges).toEqual([
      { at: new Date('2026-04-04T15:00:00Z'), direction: 'back', minutes: 30 },
    ]);
  });

  it('a monthly 31st tells the months it falls back to their last day', () => {
    const sends = nextSends(monthly(31), 'America/New_York', new Date('2026-04-01T00:00:00Z'));
    expect(sends.map((send) => send.lastDayOfMonth)).toEqual([30, null, 30, null, null]);
    expect(monthsOnLastDay(31, 'America/New_York', new Date('2026-04-01T12:00:00Z'))).toEqual([
      { year: 2026, month: 3, day: 30 },
      { year: 2026, month: 5, day: 30 },
      { year: 2026, month: 8, day: 30 },
      { year: 2026, month: 10, day: 30 },
      { year: 2027, month: 1, day: 28 },
    ]);
    expect(monthsOnLastDay(29, 'UTC', new Date('2027-01-15T00:00:00Z'))).toEqual([
      { year: 2027, month: 1, day: 28 },
    ]);
    expect(monthsOnLastDay(29, 'UTC', new Date('2028-01-15T00:00:00Z'))).toEqual([]);
    expect(monthsOnLastDay(28, 'UTC', new Date('2027-01-15T00:00:00Z'))).toEqual([]);
  });

  it("months are counted from the first send's month in the owner's zone, not UTC's", () => {
    // 2026-03-31T23:00Z is already April 1 in Kolkata: March (31 days) is not counted, April is.
    expect(monthsOnLastDay(31, 'Asia/Kolkata', new Date('2026-03-31T23:00:00Z'), 1)).toEqual([
      { year: 2026, month: 3, day: 30 },
    ]);
    expect(monthsOnLastDay(31, 'UTC', new Date('2026-03-31T23:00:00Z'), 1)).toEqual([]);
  });
});

describe('time zones', () => {
  it('an unknown time zone throws a clear error', () => {
    expect(() => nextRunAfter(daily('07:00'), 'Mars/Olympus', new Date())).toThrow(
      'Unknown time zone "Mars/Olympus": expected an IANA name such as Europe/London',
    );
    expect(() => nextSends(daily('07:00'), 'Mars/Olympus', new Date())).toThrow(
      'Unknown time zone "Mars/Olympus": expected an IANA name such as Europe/London',
    );
    expect(isIanaTimeZone('Mars/Olympus')).toBe(false);
    expect(isIanaTimeZone('')).toBe(false);
    expect(isIanaTimeZone('Pacific/Chatham')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
  });
});
