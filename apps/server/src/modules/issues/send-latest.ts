import { digestsErrors } from '#server/modules/digests/digests.errors';
import { findOwnedDigest } from '#server/modules/digests/digests.repository';
import type { IssueLinks } from '#server/modules/digests/issue-links';
import { buildIssue, type IssuesDeps } from './build-issue.usecases';
import { insertRuns } from './issues.repository';

/**
 * "Send latest digest": a manual run of the owner's digest, built now (paused or not) and mailed to the
 * owner only — subscribers get the scheduled issues. Answers the new issue for the detail page.
 */
export async function sendLatestIssue(
  deps: IssuesDeps & { issueLinks: IssueLinks },
  userId: string,
  digestId: string,
) {
  const digest = await findOwnedDigest(deps.db, userId, digestId);
  if (!digest) throw digestsErrors.digestNotFound();
  const [run] = await insertRuns(deps.db, [{ digestId, slot: deps.clock.now(), trigger: 'manual' }]);
  if (!run) throw new Error('the manual run was not recorded');
  const outcome = await buildIssue(deps, run.runId, { ownerOnly: true });
  if (outcome.status === 'built') {
    const { buildNumber, createdAt } = outcome.build;
    return {
      status: 'built' as const,
      response: {
        message: outcome.held
          ? `Issue ${buildNumber} is built. It will be mailed to you once you verify your e-mail address.`
          : `Issue ${buildNumber} is built and on its way to your inbox.`,
        build: {
          buildNumber,
          createdAt: createdAt.toISOString(),
          htmlLink: deps.issueLinks.ownerHtmlPath(digestId, buildNumber),
        },
      },
    };
  }
  return {
    status: 'not-built' as const,
    // A manual run is skipped only by its conditions (docs/product.md §3 "Conditions").
    conditionsNotMet: outcome.status === 'skipped',
    reason: outcome.status === 'done-before' ? 'This issue was already built.' : outcome.reason,
  };
}
