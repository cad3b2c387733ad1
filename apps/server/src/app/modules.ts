import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, DatabaseHandle } from '#server/db/client';
import { createAccountTokens } from '#server/modules/accounts/account-tokens';
import { createAccountProviders } from '#server/modules/accounts/accounts.providers';
import { accountsRoutes } from '#server/modules/accounts/accounts.routes';
import { createTokenCipher } from '#server/modules/accounts/token-cipher';
import { createAccessTokens } from '#server/modules/auth/access-tokens';
import { sendPasswordReset, sendPasswordResetJob } from '#server/modules/auth/auth.jobs';
import { authRoutes } from '#server/modules/auth/auth.routes';
import { createAuthenticate } from '#server/modules/auth/authenticate';
import {
  sendEmailVerification,
  sendEmailVerificationJob,
  sendSignUpAttempt,
  sendSignUpAttemptJob,
} from '#server/modules/auth/email-verification.jobs';
import { emailVerificationRoutes } from '#server/modules/auth/email-verification.routes';
import type { OAuthConfig } from '#server/modules/auth/oauth-config';
import { createSessionCheck } from '#server/modules/auth/session-check';
import type { SocialProviders } from '#server/modules/auth/social/social.providers';
import { socialRoutes } from '#server/modules/auth/social/social.routes';
import { unservableKinds } from '#server/modules/data-sources/catalogue';
import { dataSourcesRoutes } from '#server/modules/data-sources/data-sources.routes';
import { sourceContextOf } from '#server/modules/data-sources/source-context';
import {
  deliverJob,
  releaseHeldMailJob,
  settleStuckDeliveriesJob,
} from '#server/modules/deliveries/deliveries.jobs';
import {
  type DeliveryDeps,
  deliver,
  deliverNow,
  releaseHeldDeliveries,
  settleStuckDeliveries,
} from '#server/modules/deliveries/deliveries.usecases';
import { createDigestListCache } from '#server/modules/digests/digest-list-cache';
import { digestsRoutes } from '#server/modules/digests/digests.routes';
import { createIssueLinks } from '#server/modules/digests/issue-links';
import { createPageHeads } from '#server/modules/digests/page-heads';
import { publicFeedsRoutes } from '#server/modules/digests/public-feeds.routes';
import { createFeedContentCache } from '#server/modules/digests/public-feeds.usecases';
import { publicProfileRoutes } from '#server/modules/digests/public-profile.routes';
import { shareRoutes } from '#server/modules/digests/share.routes';
import {
  purgeExpiredIssues,
  purgeExpiredIssuesJob,
  purgeExpiredTokens,
  purgeExpiredTokensJob,
  purgeSourceCache,
  purgeSourceCacheJob,
  SOURCE_CACHE_LIMITS,
} from '#server/modules/housekeeping/housekeeping.jobs';
import { deleteStaleSourceCache } from '#server/modules/housekeeping/housekeeping.repository';
import { createBlockHtmlCache } from '#server/modules/issues/block-html-cache';
import { buildIssueAttempt, type IssuesDeps } from '#server/modules/issues/build-issue.usecases';
import { type CatchUpWindow, queueCatchUpIssue } from '#server/modules/issues/catch-up';
import { buildIssueJob } from '#server/modules/issues/issues.jobs';
import { issuesRoutes } from '#server/modules/issues/issues.routes';
import { startScheduler } from '#server/modules/issues/scheduler';
import { createNewsletterItems } from '#server/modules/newsletters/digest-newsletters.repository';
import { newslettersRoutes } from '#server/modules/newsletters/newsletters.routes';
import { portabilityRoutes } from '#server/modules/portability/portability.routes';
import { createSite, legalLinksOf } from '#server/modules/site/site';
import { siteRoutes } from '#server/modules/site/site.routes';
import type { SiteConfig } from '#server/modules/site/site-config';
import {
  sendSourceHealthAlert,
  sourceHealthAlertJob,
} from '#server/modules/source-health/source-health.jobs';
import { sourceHealthRoutes } from '#server/modules/source-health/source-health.routes';
import {
  queueHeldInvitations,
  sendSubscriberNotices,
  subscriberNoticeJob,
} from '#server/modules/subscribers/subscribers.jobs';
import { subscribersRoutes } from '#server/modules/subscribers/subscribers.routes';
import { templatesRoutes } from '#server/modules/templates/templates.routes';
import { usersRoutes } from '#server/modules/users/users.routes';
import type { Clock } from '#server/platform/clock';
import { deriveKey } from '#server/platform/crypto';
import { createSignedLinks } from '#server/platform/http/signed-link';
import { handlerFor, type JobQueue, type RegisteredJob } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import { createAddressPolicy } from '#server/platform/safe-fetch/address-policy';
import { createSafeFetch } from '#server/platform/safe-fetch/safe-fetch';
import { createSharedContentCache } from '#server/platform/safe-fetch/shared-content-cache';
import type { SourcesDeps } from '#server/sources/connector';
import { createConnectors } from '#server/sources/connectors';
import { createMemoryContentCache, createProviderHttp } from '#server/sources/create-provider-http';
import type { ProviderConfig } from '#server/sources/provider-config';

export interface ModulesDeps {
  database: DatabaseHandle;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  appSecret: string;
  appUrl: string;
  mailDomain: string;
  socialProviders: SocialProviders;
  /** OAuth clients of the providers accounts are connected with (Google, X/Twitter, Stripe Connect). */
  oauth: OAuthConfig;
  providers: ProviderConfig;
  /** FETCH_ALLOW_PRIVATE_HOSTS. */
  fetchAllowPrivateHosts: string[];
  /** SCHEDULE_MAX_LATENESS_MINUTES, in milliseconds. */
  scheduleMaxLatenessMs: number;
  /** SESSION_CHECK_CACHE_MS: how long "this session stands" is remembered (see createSessionCheck). */
  sessionCheckCacheMs: number;
  /** DIGEST_LIST_CACHE_USERS: how many users' digest lists are kept (see createDigestListCache). */
  digestListCacheUsers: number;
  /** ISSUE_STORAGE_QUOTA_MB, in bytes. */
  issueStorageQuotaBytes: number;
  /** NEWSLETTER_QUOTA_MB, in bytes. */
  newsletterQuotaBytes: number;
  /** Whether this deployment receives newsletters (INBOUND_SMTP_PORT is set). */
  newsletterReceiving: boolean;
  /** MAIL_RECIPIENTS_PER_DAY. */
  recipientsPerDay: number;
  /** Where the modules send jobs; the jobs they answer are started on it afterwards. */
  queue: JobQueue;
  /** SUPPORT_EMAIL, CHANGELOG_URL and the legal texts' settings. */
  site: SiteConfig;
  /** The repository's CHANGELOG.md, read at start (undefined when it is not deployed). */
  changelogMarkdown: string | undefined;
}

/**
 * The reader frame's links to a newsletter's HTML: the same for 5 minutes (refetching the message does not
 * reload the frame), working for 10 to 15. A link copied out of the page stops working soon after.
 */
const NEWSLETTER_LINK_TIMES = { lifetimeMs: 15 * 60_000, periodMs: 5 * 60_000 };

/** How often the scheduler looks for due digests besides the start of each minute, when slots come. */
export const SCHEDULER_TICK_MS = 5_000;

/**
 * Every feature module, wired once: a handler for each job they define, and the API routes they serve. start.ts and
 * the API tests both build the program through this, so tests exercise the production wiring.
 */
export function composeModules(deps: ModulesDeps) {
  const { clock, logger, mailer, appUrl, mailDomain, queue } = deps;
  const db = deps.database.db;
  const legal = legalLinksOf(deps.site, appUrl);
  const accessTokens = createAccessTokens(deriveKey(deps.appSecret, 'access-token'), clock);
  const sessions = createSessionCheck({ db, ttlMs: deps.sessionCheckCacheMs });
  const authDeps = { db, clock, accessTokens, sessions };
  const authenticate = createAuthenticate(authDeps);
  const accountsDeps = {
    db,
    clock,
    logger,
    appUrl,
    cipher: createTokenCipher(deriveKey(deps.appSecret, 'provider-tokens')),
    lockAcrossProcesses: deps.database.kind === 'postgres',
    providers: createAccountProviders(deps.oauth, {
      stripeApiUrl: deps.providers.baseUrls.stripeApi,
      logger,
    }),
  };
  const safeFetch = createSafeFetch({ allowPrivateHosts: deps.fetchAllowPrivateHosts });
  const sources: SourcesDeps = {
    http: createProviderHttp({
      safeFetch,
      // Processes share fetched content through PostgreSQL. The embedded database has one process,
      // and writing bodies through PGlite would block it (≈40 ms a miss), so it keeps memory only.
      cache:
        deps.database.kind === 'postgres'
          ? createSharedContentCache({
              db,
              logger,
              trim: () => deleteStaleSourceCache(db, clock.now(), SOURCE_CACHE_LIMITS),
            })
          : createMemoryContentCache(),
    }),
    providers: deps.providers,
    accounts: createAccountTokens(accountsDeps),
    newsletters: createNewsletterItems(db),
    clock,
    appUrl,
  };

  const connectors = createConnectors(sources);
  const deliveryDeps: DeliveryDeps = { db, clock, logger, mailer, appUrl, legal, queue };
  const { recipientsPerDay } = deps;
  const issuesDeps: IssuesDeps = {
    db,
    clock,
    logger,
    connectors,
    appUrl,
    mailDomain,
    queue,
    storageQuotaBytes: deps.issueStorageQuotaBytes,
    recipientsPerDay,
    blockCache: createBlockHtmlCache({ logger }),
    deliverNow: (deliveryIds) => deliverNow(deliveryDeps, deliveryIds),
  };
  const housekeepingDeps = { db, clock, logger };

  const jobs: RegisteredJob[] = [
    handlerFor(purgeExpiredTokensJob, () => purgeExpiredTokens(housekeepingDeps)),
    handlerFor(purgeSourceCacheJob, () => purgeSourceCache(housekeepingDeps)),
    handlerFor(purgeExpiredIssuesJob, () => purgeExpiredIssues(housekeepingDeps)),
    handlerFor(sendPasswordResetJob, (payload) =>
      sendPasswordReset({ ...authDeps, mailer, logger, appUrl, legal }, payload),
    ),
    handlerFor(sendEmailVerificationJob, (payload) =>
      sendEmailVerification({ db, clock, mailer, logger, appUrl, legal }, payload),
    ),
    handlerFor(sendSignUpAttemptJob, (payload) =>
      sendSignUpAttempt({ db, clock, mailer, logger, appUrl, legal }, payload),
    ),
    handlerFor(subscriberNoticeJob, (payload) =>
      sendSubscriberNotices({ db, clock, mailer, logger, appUrl, legal }, payload),
    ),
    handlerFor(releaseHeldMailJob, async ({ userId }) => {
      await releaseHeldDeliveries({ db, clock, logger, queue }, userId);
      await queueHeldInvitations({ db, notify }, userId);
    }),
    handlerFor(buildIssueJob, (payload, attempt) => buildIssueAttempt(issuesDeps, payload.runId, attempt)),
    handlerFor(deliverJob, (payload, attempt) => deliver(deliveryDeps, payload.deliveryId, attempt)),
    handlerFor(settleStuckDeliveriesJob, () => settleStuckDeliveries(deliveryDeps)),
    handlerFor(sourceHealthAlertJob, (payload) =>
      sendSourceHealthAlert({ db, mailer, logger, appUrl, legal }, payload),
    ),
  ];

  /** The scheduler role's loop; answers its stop function. */
  const scheduler = () =>
    startScheduler(
      { db, clock, logger, queue, maxLatenessMs: deps.scheduleMaxLatenessMs },
      SCHEDULER_TICK_MS,
    );

  const accountsConfigured = {
    GOOGLE: deps.oauth.google.credentials !== undefined,
    TWITTER: deps.oauth.twitter.credentials !== undefined,
    STRIPE: deps.oauth.stripe.credentials !== undefined,
  };
  const notify = async (subscriberIds: string[]) => {
    if (subscriberIds.length > 0) await queue.send(subscriberNoticeJob, { subscriberIds });
  };
  const issueLinks = createIssueLinks(deriveKey(deps.appSecret, 'issue-links'), clock);
  const listCache = createDigestListCache({
    changes: deps.database.changes,
    maxUsers: deps.digestListCacheUsers,
  });
  const digestDeps = {
    db,
    clock,
    appUrl,
    issueLinks,
    authenticate,
    notify,
    recipientsPerDay,
    listCache,
    queueCatchUp: (tx: Database, digestId: string, window: CatchUpWindow) =>
      queueCatchUpIssue(tx, queue, digestId, window),
  };
  const newslettersDeps = {
    db,
    clock,
    mailDomain,
    quotaBytes: deps.newsletterQuotaBytes,
    receiving: deps.newsletterReceiving,
    messageLinks: createSignedLinks(
      deriveKey(deps.appSecret, 'newsletter-links'),
      clock,
      NEWSLETTER_LINK_TIMES,
    ),
    mailer,
    safeFetch,
    privateHosts: createAddressPolicy(deps.fetchAllowPrivateHosts),
  };
  const routes: FastifyPluginAsyncZod[] = [
    authRoutes({
      ...authDeps,
      authenticate,
      jobs: queue,
      mailDomain,
      appUrl,
      // The mail held while the address was unverified (issues, invitations) goes out now.
      onAddressVerified: async (userId) => {
        await queue.send(releaseHeldMailJob, { userId });
      },
    }),
    emailVerificationRoutes({ db, clock, jobs: queue, authenticate, mailDomain }),
    usersRoutes({ db, clock, sessions, authenticate, mailDomain }),
    socialRoutes({ ...authDeps, appUrl, mailDomain, authenticate, providers: deps.socialProviders }),
    digestsRoutes(digestDeps),
    portabilityRoutes({ ...digestDeps, addressPolicy: createAddressPolicy(deps.fetchAllowPrivateHosts) }),
    issuesRoutes({ ...issuesDeps, authenticate, issueLinks }),
    sourceHealthRoutes({ db, clock, authenticate }),
    subscribersRoutes(digestDeps),
    templatesRoutes({ authenticate, unservable: unservableKinds(deps.providers, accountsConfigured) }),
    shareRoutes({ db, issueLinks }),
    publicFeedsRoutes({ db, appUrl, contents: createFeedContentCache() }),
    publicProfileRoutes({ db }),
    newslettersRoutes({ ...newslettersDeps, authenticate }),
    siteRoutes(
      createSite({
        site: deps.site,
        appUrl,
        changelogMarkdown: deps.changelogMarkdown,
        mailTransport: mailer.transport,
      }),
    ),
    accountsRoutes({ ...accountsDeps, authenticate }),
    ...dataSourcesRoutes({
      sources,
      authenticate,
      contextOf: (userId) => sourceContextOf(db, userId),
      accountsConfigured,
      health: { db, clock, logger, queue },
    }),
  ];

  const pageHeadFor = createPageHeads({ db, appUrl });

  return { authDeps, sources, jobs, routes, pageHeadFor, scheduler, issuesDeps, deliveryDeps };
}
