import {
  type Digest,
  type DigestSummary,
  type IssueRetentionMonths,
  type LastRun,
  type ScheduleType,
  shareHtmlPath,
} from '@digest/contracts';
import type { DigestSummaryRow } from './digests.repository';

export function presentDigestSummary(row: DigestSummaryRow): DigestSummary {
  return {
    digestId: row.digestId,
    name: row.name,
    active: row.active,
    scheduleType: row.scheduleType as ScheduleType,
    time: row.time,
    weekDay: row.weekDay,
    monthDay: row.monthDay,
    // The column's check constraint allows only the choices of ISSUE_RETENTION_MONTHS.
    issueRetentionMonths: row.issueRetentionMonths as IssueRetentionMonths,
    subscribers: row.subscribers,
    sources: row.sources,
    latestBuildNumber: row.latestBuildNumber === null ? null : Number(row.latestBuildNumber),
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentDigest(
  row: DigestSummaryRow,
  builds: { buildNumber: number; createdAt: Date }[],
  lastRun: { slot: Date; status: string; reason: string | null } | undefined,
): Digest {
  return {
    ...presentDigestSummary(row),
    lastRun: lastRun
      ? {
          slot: lastRun.slot.toISOString(),
          status: lastRun.status as LastRun['status'],
          reason: lastRun.reason,
        }
      : null,
    builds: builds.map((build) => ({
      buildNumber: build.buildNumber,
      createdAt: build.createdAt.toISOString(),
      htmlLink: shareHtmlPath(row.digestId, build.buildNumber),
    })),
  };
}
