/**
 * SHUTDOWN_TIMEOUT_MS bounds a whole stop, not each of its stages: the HTTP server's drain, the newsletter
 * SMTP server's sessions and the job queue's running jobs each wait at most what the stages before them
 * left, so that the stop ends within it and main.ts's deadline (a little after it) only ever catches a hang.
 */
export function stopBudget(totalMs: number, now: () => number = Date.now) {
  let endsAt: number | undefined;
  return {
    /** Starts the clock (the first call only: a second stop shares the first one's budget). */
    start() {
      endsAt ??= now() + totalMs;
    },
    /** What is left of the budget: all of it before the stop starts, never less than 0. */
    leftMs(): number {
      return endsAt === undefined ? totalMs : Math.max(0, endsAt - now());
    },
  };
}
