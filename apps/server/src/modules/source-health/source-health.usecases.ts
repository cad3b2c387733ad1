import { createHash } from 'node:crypto';
import {
  FEED_MOVE_AFTER_DAYS,
  HEALTH_ALERT_STREAK,
  type Source,
  type SourceErrorKind,
  sourceHealthKey,
} from '@digest/contracts';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import { SourceError } from '#server/sources/source-error';
import { sourceHealthAlertJob } from './source-health.jobs';
import type { SourceHealthRow } from './source-health.repository';
import * as repository from './source-health.repository';

/**
 * How one read of a source went, as an issue or a preview saw it. A failure that is not a SourceError (a
 * bug of ours) says nothing about the source and is not recorded.
 */
export type SourceRead =
  | { source: Source; ok: true; movedTo?: string | undefined }
  | {
      source: Source;
      ok: false;
      error: { kind: SourceErrorKind; detail: string; providerStatus?: number; retryAfterSeconds?: number };
    };

/** A read that gave content: an RSS feed's content says where its address moved, when it did. */
export function successfulRead(source: Source, content: unknown): SourceRead {
  const movedTo = (content as { feed?: { movedTo?: string } } | undefined)?.feed?.movedTo;
  return source.type === 'RSS' && movedTo ? { source, ok: true, movedTo } : { source, ok: true };
}

/** A read that failed: its SourceError, or undefined for anything else (a bug of ours, not the source's). */
export function failedRead(source: Source, error: unknown): SourceRead | undefined {
  if (!(error instanceof SourceError)) return undefined;
  return {
    source,
    ok: false,
    error: {
      kind: error.kind,
      detail: error.message,
      ...(error.providerStatus === undefined ? {} : { providerStatus: error.providerStatus }),
      ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    },
  };
}

export interface SourceHealthDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  queue: Pick<JobQueue, 'send'>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const emptyRecord = (digestId: string, sourceKey: string): SourceHealthRow => ({
  digestId,
  sourceKey,
  lastSuccessAt: null,
  lastErrorAt: null,
  lastErrorKind: null,
  lastErrorDetail: null,
  lastErrorStatus: null,
  consecutiveFailures: 0,
  retryAt: null,
  alertedAt: null,
  redirectTo: null,
  redirectSince: null,
  movedTo: null,
  movedAt: null,
});

/** The reads of one issue or preview by source key: a key fails when any source with it failed. */
function byKey(reads: readonly SourceRead[]): Map<string, SourceRead> {
  const keyed = new Map<string, SourceRead>();
  for (const read of reads) {
    const key = sourceHealthKey(read.source);
    const before = keyed.get(key);
    if (!before || (before.ok && !read.ok)) keyed.set(key, read);
  }
  return keyed;
}

/** The record after one read. An issue counts in the failing streak; a preview only says how it went. */
function afterRead(record: SourceHealthRow, read: SourceRead, now: Date, issue: boolean): SourceHealthRow {
  if (read.ok) {
    const movedTo = read.movedTo ?? null;
    return {
      ...record,
      lastSuccessAt: now,
      consecutiveFailures: 0,
      retryAt: null,
      // A recovered source clears the warning: a later streak is mailed about again.
      alertedAt: null,
      redirectTo: movedTo,
      redirectSince: movedTo && movedTo === record.redirectTo ? record.redirectSince : movedTo ? now : null,
    };
  }
  const { error } = read;
  return {
    ...record,
    lastErrorAt: now,
    lastErrorKind: error.kind,
    lastErrorDetail: error.detail.slice(0, 500),
    lastErrorStatus: error.providerStatus ?? null,
    consecutiveFailures: record.consecutiveFailures + (issue ? 1 : 0),
    retryAt: error.retryAfterSeconds ? new Date(now.getTime() + error.retryAfterSeconds * 1000) : null,
  };
}

/** The key "Every item once" remembers a source's items by: the SHA-256 of the same kind and settings. */
const sentItemsKeyOf = (healthKey: string) => createHash('sha256').update(healthKey).digest('base64url');

/**
 * Changes the address of each feed that kept answering the same permanent redirect for FEED_MOVE_AFTER_DAYS
 * to where it moved, in the digest's sources (its row locked by the caller's transaction), and keeps the
 * note on the source's record. Answers the records as they are after the moves.
 */
async function moveFeeds(
  tx: Database,
  digestId: string,
  records: Map<string, SourceHealthRow>,
  now: Date,
): Promise<{ moved: string[]; gone: string[] }> {
  const due = [...records.values()].filter(
    (record) =>
      record.redirectTo &&
      record.redirectSince &&
      now.getTime() - record.redirectSince.getTime() >= FEED_MOVE_AFTER_DAYS * DAY_MS,
  );
  if (due.length === 0) return { moved: [], gone: [] };
  const sources = await repository.lockedSources(tx, digestId);
  if (!sources) return { moved: [], gone: [] };
  const targets = new Map(due.map((record) => [record.sourceKey, record.redirectTo as string]));
  let changed = false;
  const next = sources.map((source) => {
    const target = source.type === 'RSS' ? targets.get(sourceHealthKey(source)) : undefined;
    if (!target || source.type !== 'RSS' || source.feedLink === target) return source;
    changed = true;
    return { ...source, feedLink: target };
  });
  if (!changed) return { moved: [], gone: [] };
  await repository.saveSources(tx, digestId, next);
  const moved: string[] = [];
  const gone: string[] = [];
  for (const [index, source] of next.entries()) {
    const before = sourceHealthKey(sources[index] as Source);
    const target = targets.get(before);
    if (!target || source === sources[index]) continue;
    const key = sourceHealthKey(source);
    // Two sources of one feed share a record: the first of them moved it.
    const record = records.get(before);
    if (!record) continue;
    if (key !== before) {
      records.delete(before);
      gone.push(before);
      await repository.moveSentItems(tx, digestId, sentItemsKeyOf(before), sentItemsKeyOf(key));
    }
    records.set(key, {
      ...record,
      sourceKey: key,
      redirectTo: null,
      redirectSince: null,
      movedTo: target,
      movedAt: now,
    });
    moved.push(key);
  }
  return { moved, gone };
}

/**
 * Records how an issue's reads went (issue 17 "Source health"), in one transaction: each source's record,
 * the failing streak, one alert e-mail queued per source and streak when it reaches HEALTH_ALERT_STREAK,
 * the move of a feed that answered a permanent redirect for a week, and the end of the records of sources
 * the digest no longer has. Health is a side matter: a failure here is logged and never stops the issue.
 */
export async function recordIssueHealth(
  deps: SourceHealthDeps,
  digestId: string,
  reads: readonly SourceRead[],
  digest: DigestAtRead = { hadRecords: true, sourcesChanged: false },
): Promise<void> {
  try {
    await recordReads(deps, digestId, reads, true, digest);
  } catch (error) {
    deps.logger.error({ err: error, digestId }, 'the health of the sources could not be recorded');
  }
}

/**
 * A builder preview of one of the digest's sources: says how the source reads now (a reconnected account
 * reads again: the warning goes), without counting in the streak of failed issues.
 */
export async function recordPreviewHealth(
  deps: SourceHealthDeps,
  digestId: string,
  read: SourceRead,
): Promise<void> {
  try {
    await recordReads(deps, digestId, [read], false);
  } catch (error) {
    deps.logger.error({ err: error, digestId }, 'the health of a previewed source could not be recorded');
  }
}

/**
 * What the build knows of the digest: whether it had any health record when its run was read (in the
 * same query), and whether the build itself just changed its sources (a web page resolved to its feed).
 */
export interface DigestAtRead {
  hadRecords: boolean;
  sourcesChanged: boolean;
}

/** Every read gave content and none answered a redirect: what almost every issue of a healthy digest sees. */
const allWell = (reads: Iterable<SourceRead>) => [...reads].every((read) => read.ok && !read.movedTo);

async function recordReads(
  deps: SourceHealthDeps,
  digestId: string,
  reads: readonly SourceRead[],
  issue: boolean,
  digest: DigestAtRead = { hadRecords: true, sourcesChanged: false },
) {
  const keyed = byKey(reads);
  if (keyed.size === 0) return;
  // Reads that all went well change only records that say something (see `recordSuccesses`), and none at
  // all when the digest had no record: a source that never failed has none, which shows as all being well
  // (`presentHealth`). What that leaves out: `lastSuccessAt` is the last read that changed the record (the
  // one that ended a failure, or a preview's), not the last read. A record created after the run was read
  // (a preview or another issue failing meanwhile) stays as that read left it: as if this read came first.
  // Sources changed by the build itself leave a record of the old key: the full write below deletes it.
  if (allWell(keyed.values()) && !digest.sourcesChanged) {
    if (digest.hadRecords)
      await repository.recordSuccesses(deps.db, digestId, [...keyed.keys()], deps.clock.now());
    return;
  }
  const moves = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // The digest's row first, as every writer of the digest locks it: no two orders, no deadlock.
    const sources = await repository.lockedSources(tx, digestId);
    if (!sources) return undefined;
    const current = new Set(sources.map(sourceHealthKey));
    const records = new Map(
      (await repository.lockedRecords(tx, digestId)).map((row) => [row.sourceKey, row]),
    );
    const alerts: string[] = [];
    for (const [key, read] of keyed) {
      // A preview of settings the digest does not have (a source being edited) is no source's health.
      if (!current.has(key)) continue;
      const record = afterRead(records.get(key) ?? emptyRecord(digestId, key), read, now, issue);
      if (issue && record.consecutiveFailures >= HEALTH_ALERT_STREAK && !record.alertedAt) {
        record.alertedAt = now;
        alerts.push(key);
      }
      records.set(key, record);
    }
    const stale = [...records.keys()].filter((key) => !current.has(key));
    for (const key of stale) records.delete(key);
    const moves = issue ? await moveFeeds(tx, digestId, records, now) : { moved: [], gone: [] };
    await repository.deleteRecords(tx, digestId, [...stale, ...moves.gone]);
    await repository.saveRecords(tx, [...records.values()]);
    for (const sourceKey of alerts)
      await deps.queue.send(sourceHealthAlertJob, { digestId, sourceKey }, { tx });
    return moves;
  });
  if (moves && moves.moved.length > 0)
    deps.logger.info({ digestId, sources: moves.moved.length }, 'moved feeds to their new addresses');
}

/** After the owner changed the digest's sources: the records of sources it no longer has go. */
export async function pruneHealth(db: Database, digestId: string, sources: readonly Source[]) {
  await repository.deleteRecordsNotIn(db, digestId, [...new Set(sources.map(sourceHealthKey))]);
}
