/**
 * Keeps PostgreSQL's statistics of the job table current while this process fills it. pg-boss plans its
 * statements from them, and they are refreshed only by ANALYZE: autovacuum runs it about once a minute
 * at best, not at all where it is turned off, and never in PGlite. A burst adds thousands of jobs within
 * that minute; planned for the few rows the statistics still counted, pg-boss's completion of a batch
 * read every job of the queue (19.7 ms for 11 jobs among 10 000 instead of 0.45 ms, measured in
 * bench/README "Issue 15, eighth stop"). So each process that has sent `jobsBetween` jobs since its last
 * ANALYZE runs one, at most every `minIntervalMs`, in the background.
 */
export interface JobTableStatistics {
  /** Counts jobs this process sent; starts an ANALYZE when enough have been sent since the last. */
  added(count: number): void;
  /** Cancels a waiting ANALYZE and waits for a running one (before the pool closes). */
  stop(): Promise<void>;
}

export interface JobTableStatisticsOptions {
  analyze: () => Promise<unknown>;
  onError: (error: unknown) => void;
  jobsBetween?: number;
  minIntervalMs?: number;
}

/** Enough jobs to change a plan, few enough that a burst's table is re-read every few seconds. */
const JOBS_BETWEEN = 1_000;
/** An ANALYZE of a 20 000-job table costs PostgreSQL 90–120 ms; one per 5 s keeps it a small share. */
const MIN_INTERVAL_MS = 5_000;

export function jobTableStatistics(options: JobTableStatisticsOptions): JobTableStatistics {
  const jobsBetween = options.jobsBetween ?? JOBS_BETWEEN;
  const minIntervalMs = options.minIntervalMs ?? MIN_INTERVAL_MS;
  let pending = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  function run() {
    timer = undefined;
    pending = 0;
    lastAt = Date.now();
    running = options
      .analyze()
      .then(
        () => undefined,
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        running = undefined;
        // Jobs sent while it ran count towards the next one.
        schedule();
      });
  }

  function schedule() {
    if (stopped || timer || running || pending < jobsBetween) return;
    timer = setTimeout(run, Math.max(0, lastAt + minIntervalMs - Date.now()));
    timer.unref();
  }

  return {
    added(count) {
      pending += count;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
