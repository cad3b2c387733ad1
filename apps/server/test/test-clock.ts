import type { Clock } from '#server/platform/clock';

/** A clock tests move by hand. */
export function testClock(start = new Date('2026-11-21T12:00:00Z')) {
  let now = start.getTime();
  const clock: Clock & { advance(ms: number): void } = {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
  return clock;
}
