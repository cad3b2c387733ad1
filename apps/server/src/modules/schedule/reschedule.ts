import { nextRunAfter, type ScheduleType } from '@digest/contracts';
import { and, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digests } from '#server/db/schema';
import { DEFAULT_TIME_ZONE } from '#server/modules/users/users.rules';

export interface ScheduledDigest {
  active: boolean;
  scheduleType: string;
  time: string;
  weekDay: number;
  monthDay: number;
}

/**
 * When the digest's next issue goes out: the first slot after `now` in the owner's zone (the default one
 * while the profile has none), or null while it is paused. Resuming therefore starts at the next slot,
 * never with the ones missed while paused.
 */
export function nextRunFor(digest: ScheduledDigest, timeZone: string | null, now: Date): Date | null {
  if (!digest.active) return null;
  return nextRunAfter(
    {
      scheduleType: digest.scheduleType as ScheduleType,
      time: digest.time,
      weekDay: digest.weekDay,
      monthDay: digest.monthDay,
    },
    timeZone ?? DEFAULT_TIME_ZONE,
    now,
  );
}

/** The owner moved to another zone: every one of their active digests runs at its local time there. */
export async function rescheduleOwnerDigests(tx: Database, userId: string, timeZone: string, now: Date) {
  const rows = await tx
    .select()
    .from(digests)
    .where(and(eq(digests.userId, userId), eq(digests.active, true)))
    .for('update');
  for (const row of rows) {
    await tx
      .update(digests)
      .set({ nextRunAt: nextRunFor(row, timeZone, now) })
      .where(eq(digests.digestId, row.digestId));
  }
}
