import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../db/client';
import type { JobDefinition, JobQueue } from '../jobs/job-queue';
import { createAccessTokens } from '../modules/auth/access-tokens';
import { sendPasswordResetJob } from '../modules/auth/auth.jobs';
import { authRoutes } from '../modules/auth/auth.routes';
import { createAuthenticate } from '../modules/auth/authenticate';
import type { SocialProviders } from '../modules/auth/social/social.providers';
import { socialRoutes } from '../modules/auth/social/social.routes';
import { purgeExpiredTokensJob } from '../modules/housekeeping/housekeeping.jobs';
import { usersRoutes } from '../modules/users/users.routes';
import type { Clock } from '../platform/clock';
import { deriveKey } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import type { Mailer } from '../platform/mailer';

export interface ModulesDeps {
  database: DatabaseHandle;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  appSecret: string;
  appUrl: string;
  mailDomain: string;
  socialProviders: SocialProviders;
}

/**
 * Every feature module, wired once: the jobs they define and the API routes they serve. start.ts and
 * the API tests both build the program through this, so tests exercise the production wiring.
 */
export function composeModules(deps: ModulesDeps) {
  const { clock, logger, mailer, appUrl, mailDomain } = deps;
  const db = deps.database.db;
  const accessTokens = createAccessTokens(deriveKey(deps.appSecret, 'access-token'), clock);
  const authDeps = { db, clock, accessTokens };
  const authenticate = createAuthenticate(authDeps);
  const passwordResetJob = sendPasswordResetJob({ ...authDeps, mailer, logger, appUrl });

  const jobs: JobDefinition<unknown>[] = [
    purgeExpiredTokensJob({ db, clock, logger }),
    passwordResetJob as JobDefinition<unknown>,
  ];

  const routes = (queue: JobQueue): FastifyPluginAsyncZod[] => [
    authRoutes({ ...authDeps, authenticate, jobs: queue, passwordResetJob, mailDomain }),
    usersRoutes({ db, clock, authenticate, mailDomain }),
    socialRoutes({ ...authDeps, appUrl, mailDomain, providers: deps.socialProviders }),
  ];

  return { authDeps, jobs, routes };
}
