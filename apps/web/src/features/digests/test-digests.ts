/** Digests as the API answers them, for the web tests of this feature. Not a test file itself. */
import type { Build, Digest, DigestSummary } from '@digest/contracts';

export const TEST_DIGEST_ID = '0b6f3c1e-2f55-4a8e-9d3c-6a1f0e2b7c41';

/** A daily digest at 07:00 New York time whose next issue is on Tuesday, November 24 2026. */
export function testDigestSummary(overrides: Partial<DigestSummary> = {}): DigestSummary {
  return {
    digestId: TEST_DIGEST_ID,
    name: 'Morning',
    active: true,
    scheduleType: 'daily',
    time: '07:00',
    weekDay: 1,
    monthDay: 1,
    issueRetentionMonths: 12,
    sendOnlyWhenNew: false,
    minSourcesToSend: 0,
    sourceTypes: [],
    subscriberCount: 0,
    failingSources: 0,
    latestBuildNumber: null,
    visibility: 'private',
    shareUrl: null,
    nextRunAt: '2026-11-24T12:00:00.000Z',
    pausedAt: null,
    timeZone: 'America/New_York',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Issue `buildNumber`, made on day `buildNumber` of November 2026. */
export function testBuild(buildNumber: number): Build {
  return {
    buildNumber,
    createdAt: `2026-11-${String(buildNumber).padStart(2, '0')}T12:00:00.000Z`,
    htmlLink: `/api/digests/${TEST_DIGEST_ID}/issues/${buildNumber}/html?expires=1795651200&signature=s${buildNumber}`,
  };
}

/** The digest with issues 1…`count`. */
export function testDigest(count: number, overrides: Partial<Digest> = {}): Digest {
  const builds = Array.from({ length: count }, (_, i) => testBuild(i + 1));
  const {
    sourceTypes: _types,
    subscriberCount: _count,
    failingSources: _failing,
    ...fields
  } = testDigestSummary({
    latestBuildNumber: count === 0 ? null : count,
  });
  return {
    ...fields,
    subscribers: [],
    sources: [],
    builds,
    lastRun: null,
    ...overrides,
  };
}
