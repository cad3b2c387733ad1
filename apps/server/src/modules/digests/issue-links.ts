import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '#server/platform/clock';

const HOUR_MS = 3_600_000;

/**
 * How long an owner's issue link works. Links end on the hour, so the address a digest answers stays the
 * same for an hour (the frame showing it does not reload on every refetch) and works for 23 to 24 hours.
 */
export const ISSUE_LINK_LIFETIME_MS = 24 * HOUR_MS;

/** The signed query of an owner's issue link. */
export interface IssueLinkQuery {
  expires: string;
  signature: string;
}

/**
 * Addresses of the owner's full copy of an issue (private blocks included). The app shows an issue in a
 * sandboxed frame, which cannot send the owner's token, and the issue needs its own CSP (inline styles),
 * which a frame written from the page would not get. So the owner's answer carries a link signed with a
 * key from APP_SECRET: it names one issue of one digest, expires, and opens nothing else.
 */
export function createIssueLinks(key: Uint8Array, clock: Clock) {
  const sign = (digestId: string, buildNumber: number, expires: number) =>
    createHmac('sha256', key).update(`${digestId}/${buildNumber}/${expires}`).digest('base64url');

  return {
    /** `/api/digests/{digestId}/issues/{buildNumber}/html?expires=…&signature=…`. */
    ownerHtmlPath(digestId: string, buildNumber: number): string {
      const now = clock.now().getTime();
      const expires = (Math.floor(now / HOUR_MS) * HOUR_MS + ISSUE_LINK_LIFETIME_MS) / 1000;
      const signature = sign(digestId, buildNumber, expires);
      return `/api/digests/${digestId}/issues/${buildNumber}/html?expires=${expires}&signature=${signature}`;
    },

    /** Whether the link was made here for this issue and has not expired. */
    isValid(digestId: string, buildNumber: number, query: IssueLinkQuery): boolean {
      if (!/^\d{1,12}$/.test(query.expires)) return false;
      const expires = Number(query.expires);
      if (expires * 1000 <= clock.now().getTime()) return false;
      const expected = Buffer.from(sign(digestId, buildNumber, expires));
      const given = Buffer.from(query.signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type IssueLinks = ReturnType<typeof createIssueLinks>;
