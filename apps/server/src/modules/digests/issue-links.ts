import type { Clock } from '#server/platform/clock';
import { createSignedLinks, type SignedLinkQuery } from '#server/platform/http/signed-link';

const HOUR_MS = 3_600_000;

/**
 * How long an owner's issue link works. Links end on the hour, so the address a digest answers stays the
 * same for an hour (the frame showing it does not reload on every refetch) and works for 23 to 24 hours.
 */
export const ISSUE_LINK_LIFETIME_MS = 24 * HOUR_MS;

/** The signed query of an owner's issue link. */
export type IssueLinkQuery = SignedLinkQuery;

/**
 * Addresses of the owner's full copy of an issue (private blocks included). The app shows an issue in a
 * sandboxed frame, which cannot send the owner's token, and the issue needs its own CSP (inline styles),
 * which a frame written from the page would not get. So the owner's answer carries a signed link
 * (platform/http/signed-link.ts): it names one issue of one digest, expires, and opens nothing else.
 */
export function createIssueLinks(key: Uint8Array, clock: Clock) {
  const links = createSignedLinks(key, clock, { lifetimeMs: ISSUE_LINK_LIFETIME_MS, periodMs: HOUR_MS });

  return {
    /** `/api/digests/{digestId}/issues/{buildNumber}/html?expires=…&signature=…`. */
    ownerHtmlPath(digestId: string, buildNumber: number): string {
      return `/api/digests/${digestId}/issues/${buildNumber}/html?${links.query(`${digestId}/${buildNumber}`)}`;
    },

    /** Whether the link was made here for this issue and has not expired. */
    isValid(digestId: string, buildNumber: number, query: IssueLinkQuery): boolean {
      return links.isValid(`${digestId}/${buildNumber}`, query);
    },
  };
}

export type IssueLinks = ReturnType<typeof createIssueLinks>;
