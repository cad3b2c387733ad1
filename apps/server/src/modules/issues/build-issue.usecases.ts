import { randomUUID } from 'node:crypto';
import { catchesUp, NOTHING_NEW_MESSAGE, sharePageUrl, sourceFixOf, sourceKindOf } from '@digest/contracts';
import {
  type BlockHtmlCache,
  type DigestBlockInput,
  isBlockOf,
  publicCopyOf,
  renderDigestEmail,
} from '@digest/email';
import type { Database } from '#server/db/client';
import { SENT_ITEMS_KEPT_DAYS } from '#server/db/schema';
import { isUniqueViolation } from '#server/db/unique-violation';
import type { IssueDelivery } from '#server/modules/deliveries/deliveries.repository';
import { sendDeliverJobs } from '#server/modules/deliveries/deliveries.usecases';
import { lockAccount, logRecipients, recipientsOfLastDay } from '#server/modules/deliveries/mail-limits';
import {
  carriedAlready,
  recordCarriedNewsletters,
} from '#server/modules/newsletters/digest-newsletters.repository';
import { fixPath } from '#server/modules/source-health/source-health.presenter';
import { recordIssueHealth, type SourceRead } from '#server/modules/source-health/source-health.usecases';
import type { Clock } from '#server/platform/clock';
import type { JobAttempt, JobQueue } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Connectors } from '#server/sources/connectors';
import {
  type IssueUnderConditions,
  issueUnderConditions,
  skippedByConditions,
  withItemFilters,
} from './conditions';
import { fetchIssueBlocks, withResolvedFeeds } from './issue-content';
import * as repository from './issues.repository';
import { carriedKeysOf, rememberedKeysOf } from './new-items';
import { sentSince } from './sent-items.repository';

export interface IssuesDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  connectors: Connectors;
  appUrl: string;
  mailDomain: string;
  queue: Pick<JobQueue, 'sendMany' | 'send'>;
  /** ISSUE_STORAGE_QUOTA_MB in bytes: the issues one account may keep. */
  storageQuotaBytes: number;
  /** MAIL_RECIPIENTS_PER_DAY: different people (not the owner) an account may mail in a day. */
  recipientsPerDay: number;
  /** Blocks rendered by earlier issues of this process: digests reading the same feed share them. */
  blockCache: BlockHtmlCache;
  /** Sends these deliveries now (`deliverNow`): the build job mails its issue itself. */
  deliverNow: (deliveryIds: readonly string[]) => Promise<void>;
}

export const DAILY_CAP_REASON =
  'Not sent: the account reached its daily limit of different recipients (MAIL_RECIPIENTS_PER_DAY).';

export type BuildOutcome =
  | {
      status: 'built';
      build: { buildNumber: number; createdAt: Date };
      held: boolean;
      /** The deliveries to send: queued as jobs already unless the caller said it sends them. */
      pendingDeliveryIds: string[];
    }
  | { status: 'skipped' | 'empty'; reason: string }
  | { status: 'done-before' };

/** The newsletters the mail shows (after any cut to fit its size): what this issue carried. */
function carriedNewsletters(blocks: readonly DigestBlockInput[]): string[] {
  return blocks.flatMap((block) =>
    isBlockOf(block, 'NEWSLETTERS') ? (block.content?.items.map((item) => item.messageId) ?? []) : [],
  );
}

/** The blocks without these newsletters (another issue of the digest carried them meanwhile). */
function withoutNewsletters(blocks: DigestBlockInput[], messageIds: readonly string[]): DigestBlockInput[] {
  return blocks.map((block) =>
    isBlockOf(block, 'NEWSLETTERS') && block.content
      ? {
          ...block,
          content: { items: block.content.items.filter((item) => !messageIds.includes(item.messageId)) },
        }
      : block,
  );
}

const hasNews = (block: DigestBlockInput) =>
  block.content !== undefined && sourceKindOf(block.source.type).hasNews(block.content);

/**
 * The blocks with, on each failing source, the owner's link to fix it (issue 17 "Source health"): only the
 * owner's copy shows it (`personalizeDigest`). The same array when no source failed.
 */
function withOwnerFixes(appUrl: string, digestId: string, reads: readonly SourceRead[]) {
  const failures = new Map(reads.flatMap((read) => (read.ok ? [] : [[read.source, read.error] as const])));
  return (blocks: DigestBlockInput[]): DigestBlockInput[] => {
    if (failures.size === 0) return blocks;
    return blocks.map((block) => {
      const failure = block.error ? failures.get(block.source) : undefined;
      if (!failure) return block;
      const fix = sourceFixOf(block.source.type, failure);
      const label = fix.label ?? 'See what happened';
      return { ...block, fix: { label, href: `${appUrl}${fixPath(fix, digestId)}` } };
    });
  };
}

/** Renders can race with a "Send latest digest" of the same digest: the number is checked as it is stored. */
const NUMBERING_ATTEMPTS = 3;

/** The unique index of a digest's issue numbers (migration 0003). */
const BUILD_NUMBER_INDEX = 'digest_builds_digest_number_unique';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What one attempt to store the issue did: nothing (its number was taken: the next attempt reads it
 * again), found newsletters an issue built meanwhile carried, or stored it.
 */
type StoreAttempt =
  | undefined
  | { repeated: string[] }
  | { buildId: string; buildNumber: number; createdAt: Date; pendingDeliveryIds: string[] };

/** Nothing of the attempt is stored: an issue stored meanwhile carried some of this one's items. */
class CarriedMeanwhile extends Error {}

/**
 * Why an issue is not sent, or undefined when it is: `skipped` when its conditions say so
 * (docs/product.md §3 "Conditions"), which comes first as the more telling reason; `empty` when nothing
 * is new (docs/product.md §3 "Only new items") or no source had anything.
 */
function nothingToSend(
  run: { sources: readonly unknown[]; sendOnlyWhenNew: boolean; minSourcesToSend: number },
  underConditions: IssueUnderConditions,
): { status: 'skipped' | 'empty'; reason: string } | undefined {
  if (run.sources.length === 0) return { status: 'empty', reason: 'The digest has no sources.' };
  const skipped = skippedByConditions(underConditions, run.minSourcesToSend);
  if (skipped) return { status: 'skipped', reason: skipped };
  const { issue } = underConditions;
  // Figures (the weather, the date) are today's reading, never "new": the option looks at list sources.
  if (run.sendOnlyWhenNew && issue.hasLists && issue.newItems === 0)
    return { status: 'empty', reason: NOTHING_NEW_MESSAGE };
  if (issue.blocks.some(hasNews)) return undefined;
  const failed = issue.blocks.filter((block) => block.error).length;
  if (failed === 0 && issue.emptiedByOnlyNew) return { status: 'empty', reason: NOTHING_NEW_MESSAGE };
  return {
    status: 'empty',
    reason: `Nothing to send: ${failed} of ${issue.blocks.length} sources failed and the others had nothing new.`,
  };
}

/**
 * Builds the issue of one run: fetches every source concurrently, renders it for the recipients and, when
 * a block reads private data, once more as its public copy without that block's content; stores both as
 * the next numbered issue and, all or nothing with it, creates one delivery per recipient — the owner,
 * plus every subscriber who accepted unless `ownerOnly` — and, unless the caller sends them (`mailBy`),
 * one delivery job each. An issue without any news is not stored or sent; the run keeps the reason. Running
 * it again for a finished run does nothing.
 * While the owner's address is unverified the deliveries are `held` (no job) until releaseHeldMailJob;
 * subscribers beyond the account's daily recipient cap get a `cancelled` delivery with the reason.
 * The newsletters the issue carried are recorded with it (all or nothing), so no later issue of this digest
 * carries them again (a manual "Send latest digest" included). So are the items of its list sources
 * (docs/product.md §3 "Every item once"): a later issue leaves them out of each "Only new items" source,
 * and one with nothing new at all is not sent when the digest says so. Recording them with the issue, not
 * with its mail, is what keeps an item from being lost or repeated: a failed build records nothing and
 * its retry carries the items; a stored issue whose mail fails is retried from the stored issue, which has
 * them, and no new issue repeats them.
 */
export async function buildIssue(
  deps: IssuesDeps,
  runId: string,
  options: {
    ownerOnly?: boolean;
    /**
     * Who sends the mail: a job per delivery, queued with the issue (a request that builds it), or the
     * caller once the issue is stored (the build job, `buildIssueAttempt`).
     */
    mailBy?: 'jobs' | 'caller';
  } = {},
): Promise<BuildOutcome> {
  const run = await repository.findRunForBuild(deps.db, runId);
  if (run?.status !== 'queued') return { status: 'done-before' };
  const log = deps.logger.child({ digestId: run.digestId, runId });
  if (run.trigger !== 'manual' && !run.active) {
    const reason = 'The digest was paused before this issue was built.';
    await repository.finishRun(deps.db, runId, 'skipped', deps.clock.now(), { reason });
    return { status: 'skipped', reason };
  }
  // A resume's "While you were away" issue: the sources that can read the paused window, reading only it.
  const catchUp = run.catchUpSince ? { since: run.catchUpSince, until: run.slot } : undefined;
  const sources = catchUp ? run.sources.filter((source) => catchesUp(source.type)) : run.sources;

  const context = {
    userId: run.userId,
    timezone: run.timeZone,
    locale: run.locale,
    digestId: run.digestId,
    ...(catchUp ? { window: catchUp } : {}),
  };
  const fetched = await fetchIssueBlocks(deps.connectors, sources, context, (error, type) =>
    log.error({ err: error, type }, 'a source failed unexpectedly'),
  );
  // Only from every source: a catch-up's blocks are a part of them, and saving those would drop the rest.
  const resolved = catchUp ? undefined : withResolvedFeeds(fetched.blocks);
  if (resolved) await repository.replaceSourcesIfUnchanged(deps.db, run.digestId, run.sources, resolved);
  // Every read counts, whether or not the issue is sent: a digest whose sources all fail sends nothing.
  await recordIssueHealth(deps, run.digestId, fetched.reads, {
    hadRecords: run.hadHealthRecords,
    sourcesChanged: resolved !== undefined,
  });
  // The items its conditions leave out are not part of the issue: never shown, never counted as sent.
  let fetchedBlocks = withItemFilters(fetched.blocks);
  // Items first sent before this are forgotten (housekeeping deletes them a little later).
  const since = new Date(deps.clock.now().getTime() - SENT_ITEMS_KEPT_DAYS * DAY_MS);
  const remembered = rememberedKeysOf(fetchedBlocks);
  const withoutSent = async () =>
    issueUnderConditions(fetchedBlocks, await sentSince(deps.db, run.digestId, remembered, since));
  let underConditions =
    fetched.withNews === 0 ? issueUnderConditions(fetchedBlocks, new Set()) : await withoutSent();
  let fresh = underConditions.issue;
  let { blocks } = fresh;
  // A catch-up reads only some of the sources: the digest's "at least N sources" does not fit it (each
  // source's own conditions still do).
  const rules = { ...run, sources, minSourcesToSend: catchUp ? 0 : run.minSourcesToSend };
  const notSent = nothingToSend(rules, underConditions);
  if (notSent) {
    await repository.finishRun(deps.db, runId, notSent.status, deps.clock.now(), { reason: notSent.reason });
    log.info({ reason: notSent.reason }, 'issue not sent');
    return notSent;
  }

  const ownerFixes = withOwnerFixes(deps.appUrl, run.digestId, fetched.reads);

  const recipients = [
    { recipient: run.ownerEmail, kind: 'owner' as const, subscriberId: null },
    ...(options.ownerOnly
      ? []
      : run.subscribers.map((subscriber) => ({
          recipient: subscriber.email,
          kind: 'subscriber' as const,
          subscriberId: subscriber.subscriberId,
        }))),
  ];

  // Only subscribers count against the daily cap: an issue to its owner alone needs neither the account's
  // lock nor its log (two round trips per issue of a burst).
  const toSubscribers = recipients.some((recipient) => recipient.kind === 'subscriber');

  for (let attempt = 1; ; attempt += 1) {
    const publicBlocks = publicCopyOf(blocks);
    const hasPrivateBlocks = publicBlocks.some((block) => block.private);
    // The run's query read the last number; an attempt after another issue was stored first reads it again.
    const buildNumber =
      attempt === 1
        ? Number(run.lastBuildNumber ?? 0) + 1
        : await repository.peekNextBuildNumber(deps.db, run.digestId);
    const issue = {
      digestName: run.name,
      issueNumber: buildNumber,
      date: run.slot,
      timeZone: run.timeZone,
      locale: run.locale,
      catchUp,
    };
    // The mails link the public page only while there is one (docs/design.md §10).
    const publicUrl = run.shareToken ? sharePageUrl(deps.appUrl, run.shareToken, buildNumber) : undefined;
    const render = { blockCache: deps.blockCache };
    const mailBlocks = ownerFixes(blocks);
    const rendered = await renderDigestEmail({ ...issue, blocks: mailBlocks, publicUrl }, render);
    // The public copy is kept even while the digest is private: turning the link on later shows every issue.
    // It links nowhere: it is the page "View in browser" opens. It never has the owner's links to fix a
    // source, so an issue with one is rendered again for it.
    const publicHtml =
      hasPrivateBlocks || publicUrl || mailBlocks !== blocks
        ? (await renderDigestEmail({ ...issue, blocks: publicBlocks }, render)).html
        : rendered.html;
    const carried = carriedNewsletters(rendered.blocks);
    const sentItems = carriedKeysOf(rendered.blocks, fresh);
    // The store is one statement, whole or not at all: an issue that needs nothing more (no newsletters, no
    // subscribers, no delivery jobs) is stored without a transaction, two round trips fewer per issue.
    const needsTransaction = carried.length > 0 || toSubscribers || options.mailBy !== 'caller';
    const storing = (store: (tx: Database) => Promise<StoreAttempt>) =>
      needsTransaction ? deps.db.transaction(store) : store(deps.db);
    const build = await storing(async (tx): Promise<StoreAttempt> => {
      // Under the digest's lock: an issue built meanwhile ("Send latest digest" during a scheduled build)
      // may have carried some of these newsletters; this one is rendered again without them. An issue
      // without newsletters needs no lock (one round trip per issue of a burst): the store statement finds
      // an item carried meanwhile itself, and a number taken meanwhile fails the numbers' unique index.
      if (carried.length > 0) await repository.lockDigest(tx, run.digestId);
      const repeated = await carriedAlready(tx, run.digestId, carried);
      if (repeated.length > 0) return { repeated };
      const now = deps.clock.now();
      if (toSubscribers) await lockAccount(tx, run.userId);
      const already = toSubscribers ? await recipientsOfLastDay(tx, run.userId, now) : new Set<string>();
      let room = deps.recipientsPerDay - already.size;
      const logged: string[] = [];
      const rows = recipients.map((recipient): IssueDelivery => {
        const deliveryId = randomUUID();
        let state: IssueDelivery['state'] = run.ownerConfirmed ? 'pending' : 'held';
        if (recipient.kind === 'subscriber') {
          if (already.has(recipient.recipient) || room-- > 0) logged.push(recipient.recipient);
          else state = 'cancelled';
        }
        return {
          ...recipient,
          deliveryId,
          state,
          lastError: state === 'cancelled' ? DAILY_CAP_REASON : null,
          messageId: `<${deliveryId}@${deps.mailDomain}>`,
        };
      });
      const buildId = randomUUID();
      // The list items are checked by the insert itself (no read under the lock in the usual case).
      const stored = await repository.storeIssue(tx, {
        runId,
        buildId,
        digestId: run.digestId,
        buildNumber,
        html: rendered.html,
        text: rendered.text,
        publicHtml,
        createdAt: now,
        sentItems: { digestId: run.digestId, keys: sentItems, at: now, since },
        deliveries: rows,
      });
      if (!stored.stored && stored.numberTaken) return undefined;
      // The statement stored nothing; a transaction's rollback undoes what came before it.
      if (!stored.stored) throw new CarriedMeanwhile();
      await recordCarriedNewsletters(tx, { digestId: run.digestId, buildId, messageIds: carried, at: now });
      await logRecipients(tx, run.userId, logged, 'issue', now);
      if (options.mailBy !== 'caller') await sendDeliverJobs(tx, deps.queue, stored.pendingDeliveryIds);
      return { buildId, buildNumber, createdAt: now, pendingDeliveryIds: stored.pendingDeliveryIds };
    }).catch((error: unknown) => {
      if (error instanceof CarriedMeanwhile) return { itemsCarried: true as const };
      // Another issue of the digest took the number: the next attempt reads it again.
      if (isUniqueViolation(error, BUILD_NUMBER_INDEX)) return undefined;
      throw error;
    });
    if (build && 'itemsCarried' in build) {
      underConditions = await withoutSent();
      fresh = underConditions.issue;
      blocks = fresh.blocks;
      const notSentNow = nothingToSend(rules, underConditions);
      if (notSentNow) {
        await repository.finishRun(deps.db, runId, notSentNow.status, deps.clock.now(), {
          reason: notSentNow.reason,
        });
        return notSentNow;
      }
    } else if (build && 'repeated' in build) {
      fetchedBlocks = withoutNewsletters(fetchedBlocks, build.repeated);
      blocks = withoutNewsletters(blocks, build.repeated);
      if (!blocks.some(hasNews)) {
        const reason = 'Nothing to send: an issue built at the same time carried the new newsletters.';
        await repository.finishRun(deps.db, runId, 'empty', deps.clock.now(), { reason });
        return { status: 'empty', reason };
      }
    } else if (build) {
      log.info({ buildNumber, recipients: recipients.length, truncated: rendered.truncated }, 'issue built');
      // Over the quota, the account's oldest issues go rather than the next one being refused: the owner
      // and friends expect the digest to keep arriving; old issues are what retention removes anyway.
      // Only when this issue can take the account past it, by the size its issues had when the run was
      // read: an issue of the account stored meanwhile (another digest's) is counted at the next build.
      const bytes = Buffer.byteLength(rendered.html) + Buffer.byteLength(rendered.text);
      const trimmed =
        run.storedBytes + bytes > deps.storageQuotaBytes
          ? await repository.deleteIssuesBeyondQuota(
              deps.db,
              run.userId,
              build.buildId,
              deps.storageQuotaBytes,
            )
          : 0;
      if (trimmed > 0)
        log.info({ trimmed }, 'deleted the oldest issues of an account over its storage quota');
      return {
        status: 'built',
        build: { buildNumber: build.buildNumber, createdAt: build.createdAt },
        held: !run.ownerConfirmed,
        pendingDeliveryIds: build.pendingDeliveryIds,
      };
    }
    if (attempt >= NUMBERING_ATTEMPTS)
      throw new Error('another issue of this digest kept being stored first');
  }
}

/**
 * One attempt of a build job: builds the issue and mails it. A retry of an attempt that died after storing
 * the issue finds the run built and sends what that attempt left unsent. When the last attempt fails (the
 * job will not run again), the run records why.
 */
export async function buildIssueAttempt(deps: IssuesDeps, runId: string, attempt?: JobAttempt) {
  try {
    const outcome = await buildIssue(deps, runId, { mailBy: 'caller' });
    if (outcome.status === 'built') await deps.deliverNow(outcome.pendingDeliveryIds);
    else if (outcome.status === 'done-before')
      await deps.deliverNow(await repository.unsentDeliveriesOfRun(deps.db, runId));
  } catch (error) {
    if (attempt && attempt.retryCount >= attempt.retryLimit) await failRun(deps, runId, error);
    throw error;
  }
}

async function failRun(deps: Pick<IssuesDeps, 'db' | 'clock'>, runId: string, error: unknown) {
  await repository.finishRun(deps.db, runId, 'failed', deps.clock.now(), {
    reason: `The issue could not be built: ${(error as Error).message ?? String(error)}`.slice(0, 500),
  });
}
