import type { Schedule } from '@digest/contracts';
import { useId, useMemo } from 'react';
import { nextSendsView } from '../lib/next-sends';
import styles from './NextSends.module.css';

export interface NextSendsProps {
  schedule: Schedule;
  /** The owner's zone, where the schedule runs. */
  timeZone: string;
  /** The heading's level where the list sits: h3 in the schedule popup, h2 on the digest page. */
  headingLevel?: 2 | 3;
  /** For tests; the browser's clock, zone and locale otherwise. */
  now?: Date;
  viewerTimeZone?: string;
  locale?: string;
}

/**
 * The next five sends, computed here as the scheduler computes them, so the schedule popup follows every
 * change of zone, frequency, time or day at once: in the owner's zone, in the viewer's too when it is
 * another, with a note for each clock change on the way and each month too short for the chosen day.
 */
export function NextSends({
  schedule,
  timeZone,
  headingLevel = 3,
  now,
  viewerTimeZone,
  locale,
}: NextSendsProps) {
  const headingId = useId();
  const { scheduleType, time, weekDay, monthDay } = schedule;
  const view = useMemo(
    () => nextSendsView({ scheduleType, time, weekDay, monthDay }, timeZone, { now, viewerTimeZone, locale }),
    [scheduleType, time, weekDay, monthDay, timeZone, now, viewerTimeZone, locale],
  );
  if (!view) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const elsewhere = view.lines.some((line) => line.yourTime !== null);
  return (
    <section className={styles.nextSends} aria-labelledby={headingId}>
      <Heading id={headingId} className={styles.heading}>
        Next sends
        {elsewhere ? <span className={styles.zone}> ({timeZone})</span> : null}
      </Heading>
      <ol className={styles.list}>
        {view.lines.map((line) => (
          <li key={line.key} className={styles.send}>
            <time dateTime={line.key} className={styles.when}>
              {line.when}
            </time>
            {line.yourTime ? <span className={styles.yourTime}>{line.yourTime} your time</span> : null}
            {line.notes.map((note) => (
              <span key={note} className={styles.note}>
                {note}
              </span>
            ))}
          </li>
        ))}
      </ol>
      {view.shortMonths ? <p className={styles.note}>{view.shortMonths}</p> : null}
    </section>
  );
}
