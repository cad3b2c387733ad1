import { describe, expect, it } from 'vitest';
import { catchesUp, pausedLongerThanPeriod } from './catch-up';
import { digestPatchSchema } from './digests';

const at = (iso: string) => new Date(iso);

describe('a pause longer than the digest’s period offers one catch-up issue', () => {
  it('daily: longer than a day', () => {
    const paused = at('2026-11-01T07:00:00Z');
    expect(pausedLongerThanPeriod('daily', paused, at('2026-11-02T07:00:00Z'))).toBe(false);
    expect(pausedLongerThanPeriod('daily', paused, at('2026-11-02T07:00:01Z'))).toBe(true);
  });

  it('weekly: longer than 7 days', () => {
    const paused = at('2026-11-01T07:00:00Z');
    expect(pausedLongerThanPeriod('weekly', paused, at('2026-11-08T07:00:00Z'))).toBe(false);
    expect(pausedLongerThanPeriod('weekly', paused, at('2026-11-08T07:00:01Z'))).toBe(true);
  });

  it('monthly: longer than one calendar month, 31 January reaching to the end of February', () => {
    expect(pausedLongerThanPeriod('monthly', at('2026-11-15T07:00:00Z'), at('2026-12-15T07:00:00Z'))).toBe(
      false,
    );
    expect(pausedLongerThanPeriod('monthly', at('2026-11-15T07:00:00Z'), at('2026-12-15T07:00:01Z'))).toBe(
      true,
    );
    expect(pausedLongerThanPeriod('monthly', at('2027-01-31T07:00:00Z'), at('2027-02-28T07:00:00Z'))).toBe(
      false,
    );
    expect(pausedLongerThanPeriod('monthly', at('2027-01-31T07:00:00Z'), at('2027-02-28T07:00:01Z'))).toBe(
      true,
    );
    expect(pausedLongerThanPeriod('monthly', at('2026-12-20T07:00:00Z'), at('2027-01-20T07:00:01Z'))).toBe(
      true,
    );
  });

  it('only feeds, newsletters and Hacker News catch up', () => {
    expect(['RSS', 'NEWSLETTERS', 'HACKER_NEWS'].every((type) => catchesUp(type as never))).toBe(true);
    expect(['DATE', 'WEATHER', 'GOOGLE_CALENDAR', 'REDDIT'].some((type) => catchesUp(type as never))).toBe(
      false,
    );
  });

  it('catchUp: true only with active: true', () => {
    expect(digestPatchSchema.parse({ active: true, catchUp: true })).toEqual({ active: true, catchUp: true });
    expect(digestPatchSchema.safeParse({ catchUp: true }).success).toBe(false);
    expect(digestPatchSchema.safeParse({ active: false, catchUp: true }).success).toBe(false);
    expect(digestPatchSchema.safeParse({ active: true, catchUp: false }).success).toBe(false);
  });
});
