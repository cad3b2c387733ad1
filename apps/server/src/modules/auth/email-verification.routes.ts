import { changeEmailSchema, messageResponseSchema, userResponseSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '#server/db/client';
import { presentUser, type UserRow } from '#server/modules/users/users.presenter';
import type { Clock } from '#server/platform/clock';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { limitByKey } from '#server/platform/http/rate-limit';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import { cancelEmailChange, requestEmailChange, resendVerification } from './email-verification.usecases';

export const VERIFICATION_RATE_LIMITS = {
  /** Each resend is a mail to the address: a few, then a pause. */
  resendPerUser: { max: 3, timeWindow: '15 minutes' },
  /** Each request checks the password (a guess with a stolen access token) and mails two addresses. */
  emailChangePerUser: { max: 5, timeWindow: '15 minutes' },
  perIp: { max: 20, timeWindow: '15 minutes' },
};

export interface EmailVerificationRoutesDeps {
  db: Database;
  clock: Clock;
  jobs: Pick<JobQueue, 'send'>;
  authenticate: Authenticate;
  mailDomain: string;
}

const security = [{ bearerAuth: [] }];

/** Resending a verification link, and changing the account's address through one. */
export function emailVerificationRoutes(deps: EmailVerificationRoutesDeps): FastifyPluginAsyncZod {
  const present = (row: UserRow) => ({ user: presentUser(row, { mailDomain: deps.mailDomain }) });

  return async (app) => {
    const perUser = (name: string, limit: { max: number; timeWindow: string }) =>
      limitByKey(app, name, limit, (request) => authOf(request).userId);

    app.post(
      '/auth/email/resend',
      {
        config: { rateLimit: VERIFICATION_RATE_LIMITS.perIp },
        preHandler: [
          deps.authenticate,
          perUser('verification-resend', VERIFICATION_RATE_LIMITS.resendPerUser),
        ],
        schema: {
          tags: ['auth'],
          summary: 'Mail a new verification link: to the pending new address, else to the unconfirmed one',
          security,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        const sentTo = await resendVerification(deps, authOf(request));
        return { message: `We sent a new confirmation link to ${sentTo}.` };
      },
    );

    app.post(
      '/users/me/email',
      {
        config: { rateLimit: VERIFICATION_RATE_LIMITS.perIp },
        preHandler: [deps.authenticate, perUser('email-change', VERIFICATION_RATE_LIMITS.emailChangePerUser)],
        schema: {
          tags: ['users'],
          summary:
            'Ask for a new e-mail address (current password required): it becomes pending, takes effect when the link mailed to it is followed, and the current address is told',
          security,
          body: changeEmailSchema,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => present(await requestEmailChange(deps, authOf(request), request.body)),
    );

    app.delete(
      '/users/me/email/pending',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['users'],
          summary: 'Cancel a pending e-mail change: links mailed to the new address stop working',
          security,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => present(await cancelEmailChange(deps, authOf(request))),
    );
  };
}
