/** A user's digests and drafts as every feature reads and writes them: API, queries, wording, icons. */

export {
  createDigest,
  createDraft,
  deleteDraft,
  fetchDigests,
  rebuildDigest,
  updateDigest,
  updateDraft,
} from './api/digests-api';
export type { Digest, DigestSummary, Draft, Subscriber } from './api/schemas';
export {
  digestKeys,
  useDeleteDigest,
  useDeleteDraft,
  useDigest,
  useDigestHealth,
  useDigestLimitReached,
  useDigests,
  useDrafts,
  useDuplicateDigest,
  useRemoveSubscriber,
  useSendLatestDigest,
  useSetActive,
  useSetSubscribers,
  useSetVisibility,
  useSubscribers,
} from './api/use-digests';
export { NextSends } from './components/NextSends';
export { hasHealthNews, SourceHealthLine } from './components/SourceHealthLine';
export { SourceIcon, SourceIcons } from './components/SourceIcons';
export {
  formatCount,
  formatTime12,
  missedIssueText,
  nextIssueText,
  ordinal,
  scheduleDay,
  scheduleLine,
  scheduleTypeLabel,
  visibilityLabel,
} from './lib/format';
export { issuePager } from './lib/issue-pager';
// For the tests of other features that show digests.
export { TEST_DIGEST_ID, testDigest, testDigestSummary } from './test-digests';
