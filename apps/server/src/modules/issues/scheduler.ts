import type { Database } from '#server/db/client';
import { slotKey } from '#server/modules/schedule/next-run';
import { nextRunFor } from '#server/modules/schedule/reschedule';
import type { Clock } from '#server/platform/clock';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import { buildIssueJob } from './issues.jobs';
import { insertRuns, lockDueDigests, lockUnscheduledDigests, setNextRuns } from './issues.repository';

export interface SchedulerDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  queue: Pick<JobQueue, 'sendMany'>;
  /** A slot found later than this (downtime) is skipped and recorded instead of sent hours late. */
  maxLatenessMs: number;
}

/** Digests taken per transaction: a burst of thousands commits in steps, each one short. */
const BATCH = 500;

function lateness(ms: number) {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 120 ? `${Math.round(minutes / 60)} h` : `${minutes} min`;
}

/**
 * One pass of the scheduler: every active digest whose slot has come gets an `issue_runs` row for that
 * slot and a build job keyed `digestId:slot`, and its `next_run_at` moves to the next slot after now —
 * all in one transaction, so a slot is either fully taken or not at all. A slot that was already
 * recorded (another scheduler, a crash after the commit) is never queued again. Missed slots are not
 * caught up one by one: the next slot is the first one after now. Answers how many runs were queued.
 */
export async function runSchedulerTick(deps: SchedulerDeps): Promise<{ queued: number; skipped: number }> {
  await scheduleUnscheduled(deps);
  let queued = 0;
  let skipped = 0;
  for (;;) {
    const now = deps.clock.now();
    const taken = await deps.db.transaction(async (tx) => {
      const due = await lockDueDigests(tx, now, BATCH);
      if (due.length === 0) return 0;
      const runs = due.map((digest) => {
        const slot = digest.nextRunAt as Date;
        const late = now.getTime() - slot.getTime();
        return late > deps.maxLatenessMs
          ? {
              digestId: digest.digestId,
              slot,
              status: 'skipped' as const,
              reason: `The server was not running at the scheduled time; skipped ${lateness(late)} late.`,
              finishedAt: now,
            }
          : { digestId: digest.digestId, slot, status: 'queued' as const };
      });
      const inserted = await insertRuns(tx, runs);
      const toBuild = inserted.filter((run) => run.status === 'queued');
      await deps.queue.sendMany(
        buildIssueJob,
        toBuild.map((run) => ({
          payload: { runId: run.runId },
          singletonKey: slotKey(run.digestId, run.slot),
        })),
        { tx },
      );
      await setNextRuns(
        tx,
        due.map((digest) => nextRunOf(digest, now)),
      );
      queued += toBuild.length;
      skipped += inserted.length - toBuild.length;
      for (const run of inserted) {
        if (run.status === 'skipped')
          deps.logger.warn({ digestId: run.digestId, slot: run.slot }, 'late slot skipped');
      }
      return due.length;
    });
    if (taken < BATCH) break;
  }
  if (queued > 0) deps.logger.info({ queued, skipped }, 'scheduler queued issues');
  return { queued, skipped };
}

type ScheduledRow = Awaited<ReturnType<typeof lockDueDigests>>[number];

function nextRunOf(digest: ScheduledRow, now: Date) {
  return {
    digestId: digest.digestId,
    nextRunAt: nextRunFor({ ...digest, active: true }, digest.timeZone, now) as Date,
  };
}

/** Active digests that have no next run yet get one (rows from before scheduling existed). */
async function scheduleUnscheduled(deps: Pick<SchedulerDeps, 'db' | 'clock'>) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const rows = await lockUnscheduledDigests(tx, BATCH);
    await setNextRuns(
      tx,
      rows.map((digest) => nextRunOf(digest, now)),
    );
  });
}

const MINUTE_MS = 60_000;
/** A tick aimed at a minute comes this much after it, so that the minute has begun by the clock it reads. */
const PAST_THE_MINUTE_MS = 20;

/**
 * How long until the next tick: `intervalMs`, or less when a minute begins sooner. Every slot is a
 * whole minute (a schedule is an hour and a minute in a zone), so the tick that would have found it up
 * to `intervalMs` late comes at the minute instead and a digest goes out on time.
 */
export function delayToNextTick(now: Date, intervalMs: number): number {
  const untilNextMinute = MINUTE_MS - (now.getTime() % MINUTE_MS) + PAST_THE_MINUTE_MS;
  return Math.min(intervalMs, untilNextMinute);
}

/**
 * The scheduler role: a tick every `intervalMs` (one at a time), and one as each minute begins. Answers
 * a stop function that waits for a running tick.
 */
export function startScheduler(deps: SchedulerDeps, intervalMs: number): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = runSchedulerTick(deps)
      .catch((error) => deps.logger.error({ err: error }, 'scheduler tick failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, delayToNextTick(deps.clock.now(), intervalMs));
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
