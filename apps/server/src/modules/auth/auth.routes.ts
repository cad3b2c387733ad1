import {
  authResponseSchema,
  forgotPasswordSchema,
  loginSchema,
  messageResponseSchema,
  resetPasswordSchema,
  SIGN_UP_MESSAGE,
  signupSchema,
  verifyEmailSchema,
} from '@digest/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { normaliseEmail } from '#server/modules/users/users.rules';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { AppError } from '#server/platform/http/errors';
import { limitByKey } from '#server/platform/http/rate-limit';
import type { JobQueue } from '#server/platform/jobs/job-queue';
import { authErrors } from './auth.errors';
import { sendPasswordResetJob } from './auth.jobs';
import * as auth from './auth.usecases';
import { type VerifyEmailDeps, verifyEmail } from './email-verification.usecases';
import { clearRefreshCookie, readRefreshCookie, requireAppRequest, sendSession } from './session-cookie';

// docs/product.md §8, word for word: the same answer whether or not the address has an account.
export const RECOVERY_MESSAGE =
  'If your account is active then a password reset link will be emailed to you in a few minutes. If you are still having trouble, please contact us.';

export const RATE_LIMITS = {
  /** Per client address, any account. */
  signInPerIp: { max: 30, timeWindow: '5 minutes' },
  /**
   * Per account, any address: slows a distributed guesser; the short window means an attacker can
   * keep a real user out for five minutes at most.
   */
  signInPerAccount: { max: 10, timeWindow: '5 minutes' },
  forgotPerIp: { max: 10, timeWindow: '15 minutes' },
  forgotPerAddress: { max: 3, timeWindow: '15 minutes' },
  signUpPerIp: { max: 20, timeWindow: '1 hour' },
  /** Each sign-up mails the address (a link, or a note to its owner): bounds the mail one address gets. */
  signUpPerAddress: { max: 3, timeWindow: '1 hour' },
  /** Guessing a verification token is hopeless (256 bits), but each try costs a query. */
  verifyPerIp: { max: 30, timeWindow: '15 minutes' },
};

export interface AuthRoutesDeps extends VerifyEmailDeps {
  authenticate: Authenticate;
  jobs: Pick<JobQueue, 'send'>;
  mailDomain: string;
  appUrl: string;
}

export function authRoutes(deps: AuthRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const bodyEmail = (request: FastifyRequest) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return typeof email === 'string' ? normaliseEmail(email) : '';
    };

    app.post(
      '/auth/signup/email',
      {
        config: { rateLimit: RATE_LIMITS.signUpPerIp },
        preHandler: limitByKey(app, 'signup', RATE_LIMITS.signUpPerAddress, bodyEmail),
        schema: {
          tags: ['auth'],
          summary:
            'Create an account with e-mail and password: the same answer whether or not the address has an account, and no session until the mailed link is followed',
          body: signupSchema,
          response: { 202: messageResponseSchema },
        },
      },
      async (request, reply) => {
        await auth.signUp(deps, request.body);
        return reply.status(202).send({ message: SIGN_UP_MESSAGE });
      },
    );

    app.post(
      '/auth/email/verify',
      {
        config: { rateLimit: RATE_LIMITS.verifyPerIp },
        schema: {
          tags: ['auth'],
          summary:
            'Follow a verification link (sign-up or e-mail change): confirms the address and signs in. A POST, so mail scanners that open links verify nothing',
          body: verifyEmailSchema,
          response: { 200: authResponseSchema },
        },
      },
      async (request, reply) => sendSession(reply, deps, await verifyEmail(deps, request.body.token)),
    );

    app.post(
      '/auth/signin/email',
      {
        config: { rateLimit: RATE_LIMITS.signInPerIp },
        preHandler: limitByKey(app, 'signin', RATE_LIMITS.signInPerAccount, bodyEmail),
        schema: {
          tags: ['auth'],
          summary: 'Sign in with e-mail and password',
          body: loginSchema,
          response: { 200: authResponseSchema },
        },
      },
      async (request, reply) => sendSession(reply, deps, await auth.signIn(deps, request.body)),
    );

    app.post(
      '/auth/refresh',
      {
        preHandler: requireAppRequest(deps.appUrl),
        schema: {
          tags: ['auth'],
          summary:
            'Renew the session of the refresh cookie: a new access token, and a new cookie (the old one stops working)',
          description:
            'Reads the refresh token from its HttpOnly cookie only, never from the body, and needs the `x-digest-session` header.',
          response: { 200: authResponseSchema },
        },
      },
      async (request, reply) => {
        const refreshToken = readRefreshCookie(request, deps.appUrl);
        if (!refreshToken) throw authErrors.noSession();
        try {
          return sendSession(reply, deps, await auth.refresh(deps, refreshToken));
        } catch (error) {
          // A refused token is of no use to the browser any more; after a failure of ours it may still be.
          if (error instanceof AppError && error.statusCode === 401) clearRefreshCookie(reply, deps.appUrl);
          throw error;
        }
      },
    );

    app.post(
      '/auth/logout',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['auth'],
          summary: 'End this session',
          security: [{ bearerAuth: [] }],
          response: { 200: messageResponseSchema },
        },
      },
      async (request, reply) => {
        await auth.logout(deps, authOf(request).sessionId);
        clearRefreshCookie(reply, deps.appUrl);
        return { message: 'You are logged out.' };
      },
    );

    app.post(
      '/auth/password/forgot',
      {
        config: { rateLimit: RATE_LIMITS.forgotPerIp },
        preHandler: limitByKey(app, 'forgot', RATE_LIMITS.forgotPerAddress, bodyEmail),
        schema: {
          tags: ['auth'],
          summary: 'E-mail a password reset link (same answer whether or not the address has an account)',
          body: forgotPasswordSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await deps.jobs.send(sendPasswordResetJob, { email: request.body.email });
        return { message: RECOVERY_MESSAGE };
      },
    );

    app.post(
      '/auth/password/recover',
      {
        config: { rateLimit: RATE_LIMITS.forgotPerIp },
        schema: {
          tags: ['auth'],
          summary: 'Set a new password with the token from the reset e-mail',
          body: resetPasswordSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await auth.resetPassword(deps, request.body);
        return { message: 'Your password has been changed. You can log in with it now.' };
      },
    );
  };
}
