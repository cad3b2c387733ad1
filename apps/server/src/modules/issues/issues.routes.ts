import { NOTHING_SENT_CODES, rebuildResponseSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import { idParams, isUuid } from '#server/modules/digests/ids';
import type { IssueLinks } from '#server/modules/digests/issue-links';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { AppError } from '#server/platform/http/errors';
import { limitByKey } from '#server/platform/http/rate-limit';
import type { IssuesDeps } from './build-issue.usecases';
import { sendLatestIssue } from './send-latest';

/** Each one fetches every source and mails the owner: limited per account. */
export const REBUILD_RATE_LIMIT = { max: 10, timeWindow: '10 minutes' };

export interface IssuesRoutesDeps extends IssuesDeps {
  authenticate: Authenticate;
  issueLinks: IssueLinks;
}

/** "Send latest digest" (docs/product.md §7 `GET /digests/rebuild/{digestId}`; POST per docs/design.md §5, it has effects). */
export function issuesRoutes(deps: IssuesRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const perUser = limitByKey(
      app,
      'digest-rebuild',
      REBUILD_RATE_LIMIT,
      (request) => authOf(request).userId,
    );
    app.post(
      '/digests/rebuild/:id',
      {
        preHandler: [deps.authenticate, perUser],
        schema: {
          tags: ['digests'],
          summary: 'Build a new issue now from live content and e-mail it to the owner',
          description:
            'Answers the new issue. 422 NOTHING_TO_SEND when every source failed or had nothing new, 422 CONDITIONS_NOT_MET when the conditions of its sources or of the digest were not met, each with the reason in words (no issue is stored).',
          security: [{ bearerAuth: [] }],
          params: idParams,
          response: { 200: rebuildResponseSchema },
        },
      },
      async (request) => {
        if (!isUuid(request.params.id)) throw digestsErrors.digestNotFound();
        const outcome = await sendLatestIssue(deps, authOf(request).userId, request.params.id);
        if (outcome.status !== 'built') {
          const code = outcome.conditionsNotMet
            ? NOTHING_SENT_CODES.conditionsNotMet
            : NOTHING_SENT_CODES.nothingToSend;
          throw new AppError(422, code, outcome.reason);
        }
        return outcome.response;
      },
    );
  };
}
