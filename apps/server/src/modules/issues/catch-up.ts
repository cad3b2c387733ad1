import type { Database } from '#server/db/client';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import { buildIssueJob } from './issues.jobs';
import { insertRuns } from './issues.repository';

/** The time a catch-up issue covers: from the pause to the resume. */
export interface CatchUpWindow {
  since: Date;
  until: Date;
}

/** The build job's singleton key: one catch-up per pause, whoever asks twice. */
export function catchUpKey(digestId: string, since: Date): string {
  return `${digestId}:catch-up:${since.toISOString()}`;
}

/**
 * Queues the one "While you were away" issue of a resume, in the resume's transaction: an `issue_runs` row
 * (`catch_up`, slot = the resume, `catch_up_since` = the pause) and its build job. The run's unique
 * (digest, slot) and the job's key per pause make it one issue, never more, even when two requests race; the
 * digest's schedule is left alone, so the next scheduled issue is the first slot after the resume.
 */
export async function queueCatchUpIssue(
  tx: Database,
  queue: Pick<JobQueue, 'send'>,
  digestId: string,
  window: CatchUpWindow,
) {
  const [run] = await insertRuns(tx, [
    { digestId, slot: window.until, trigger: 'catch_up', catchUpSince: window.since, status: 'queued' },
  ]);
  if (!run) return;
  await queue.send(
    buildIssueJob,
    { runId: run.runId },
    { tx, singletonKey: catchUpKey(digestId, window.since) },
  );
}
