import {
  type Digest,
  type DigestSummary,
  type DigestVisibility,
  type IssueRetentionMonths,
  type LastRun,
  type ScheduleType,
  sharePageUrl,
  type VisibilityResponse,
} from '@digest/contracts';
import type { DigestDetailRow, DigestSummaryRow } from './digests.repository';
import type { IssueLinks } from './issue-links';

/** The owner's view of the public link: on with its page's address, or off. */
export function presentVisibility(
  appUrl: string,
  row: { visibility: string; shareToken: string | null },
): VisibilityResponse {
  return {
    visibility: row.visibility as DigestVisibility,
    shareUrl: row.shareToken ? sharePageUrl(appUrl, row.shareToken) : null,
  };
}

type CommonRow = Omit<DigestSummaryRow, 'sourceTypes' | 'subscriberCount' | 'failingSources'>;

/** The fields a digest's card and its page share. */
function presentCommon(row: CommonRow, appUrl: string) {
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
    sendOnlyWhenNew: row.sendOnlyWhenNew,
    minSourcesToSend: row.minSourcesToSend,
    latestBuildNumber: row.latestBuildNumber === null ? null : Number(row.latestBuildNumber),
    ...presentVisibility(appUrl, row),
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    pausedAt: row.active ? null : (row.pausedAt?.toISOString() ?? null),
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentDigestSummary(row: DigestSummaryRow, appUrl: string): DigestSummary {
  return {
    ...presentCommon(row, appUrl),
    sourceTypes: row.sourceTypes,
    subscriberCount: row.subscriberCount,
    failingSources: row.failingSources,
  };
}

export function presentDigest(
  links: { appUrl: string; issueLinks: IssueLinks },
  row: DigestDetailRow,
  builds: { buildNumber: number; createdAt: Date }[],
  lastRun: { slot: Date; status: string; reason: string | null } | undefined,
): Digest {
  return {
    ...presentCommon(row, links.appUrl),
    subscribers: row.subscribers,
    sources: row.sources,
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
      htmlLink: links.issueLinks.ownerHtmlPath(row.digestId, build.buildNumber),
    })),
  };
}
