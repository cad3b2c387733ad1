import type { Source } from '@digest/contracts';
import { and, asc, eq, gt, inArray, isNull, lte, ne, notExists, sql } from 'drizzle-orm';
import { abortStatementIf, isAbortedStatement } from '#server/db/abort-statement';
import { type Database, rowsOf } from '#server/db/client';
import { preparedPerDatabase } from '#server/db/prepared-queries';
import { deliveries, digestBuilds, digests, issueRuns, type RunStatus, users } from '#server/db/schema';
import { type IssueDelivery, insertIssueDeliveries } from '#server/modules/deliveries/deliveries.repository';
import { userTimeZone } from '#server/modules/users/users.repository';
import { insertSentItems, type SentItems, uniqueKeys } from './sent-items.repository';

/**
 * Active digests whose slot has come, oldest slot first, locked for this transaction. SKIP LOCKED lets
 * several scheduler processes share the work instead of waiting on each other's rows.
 */
export function lockDueDigests(tx: Database, now: Date, limit: number) {
  return selectScheduled(tx)
    .where(and(eq(digests.active, true), lte(digests.nextRunAt, now)))
    .orderBy(asc(digests.nextRunAt))
    .limit(limit)
    .for('update', { of: digests, skipLocked: true });
}

/** Active digests without a next run (written before scheduling existed, or by hand), locked. */
export function lockUnscheduledDigests(tx: Database, limit: number) {
  return selectScheduled(tx)
    .where(and(eq(digests.active, true), isNull(digests.nextRunAt)))
    .limit(limit)
    .for('update', { of: digests, skipLocked: true });
}

function selectScheduled(tx: Database) {
  return tx
    .select({
      digestId: digests.digestId,
      nextRunAt: digests.nextRunAt,
      scheduleType: digests.scheduleType,
      time: digests.time,
      weekDay: digests.weekDay,
      monthDay: digests.monthDay,
      timeZone: userTimeZone,
    })
    .from(digests)
    .innerJoin(users, eq(users.userId, digests.userId))
    .$dynamic();
}

/** Records the slots; answers the runs that are new (a slot already recorded is left as it was). */
export function insertRuns(tx: Database, rows: (typeof issueRuns.$inferInsert)[]) {
  if (rows.length === 0) return Promise.resolve([]);
  return tx
    .insert(issueRuns)
    .values(rows)
    .onConflictDoNothing({ target: [issueRuns.digestId, issueRuns.slot] })
    .returning({
      runId: issueRuns.runId,
      digestId: issueRuns.digestId,
      slot: issueRuns.slot,
      status: issueRuns.status,
    });
}

/** Moves each digest to its next slot in one statement. */
export async function setNextRuns(tx: Database, next: { digestId: string; nextRunAt: Date }[]) {
  if (next.length === 0) return;
  const values = sql.join(
    next.map((row) => sql`(${row.digestId}::uuid, ${row.nextRunAt.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await tx.execute(sql`
    update digests set next_run_at = v.next_run_at
    from (values ${values}) as v(digest_id, next_run_at)
    where digests.digest_id = v.digest_id`);
}

/** Subscribers of the digest who accepted the invitation, oldest first: each gets a delivery of the issue. */
const subscribersOfDigest = sql<{ subscriberId: string; email: string }[]>`coalesce((
  select json_agg(json_build_object('subscriberId', s.subscriber_id, 'email', s.email) order by s.subscribed_at)
  from digest_subscribers s
  where s.digest_id = ${digests.digestId} and s.status = 'subscribed' and s.removed_at is null
), '[]'::json)`;

/** The bytes the account's issues take, as the storage quota counts them (`deleteIssuesBeyondQuota`). */
const storedBytesOfOwner = sql<number>`(
  select coalesce(sum(octet_length(b.html) + octet_length(b.text)), 0)::float8
  from digest_builds b join digests d on d.digest_id = b.digest_id
  where d.user_id = ${users.userId}
)`;

/**
 * What a build needs, in one query: the run, its digest and the owner (zone, locale, e-mail, name), and
 * what the build would otherwise ask for one query at a time — the subscribers, the last issue's number,
 * whether the digest has health records, the bytes the account's issues take.
 */
export async function findRunForBuild(db: Database, runId: string) {
  const [row] = await preparedRunForBuild(db).execute({ runId });
  return row;
}

const preparedRunForBuild = preparedPerDatabase((db) =>
  db
    .select({
      runId: issueRuns.runId,
      slot: issueRuns.slot,
      trigger: issueRuns.trigger,
      catchUpSince: issueRuns.catchUpSince,
      status: issueRuns.status,
      digestId: digests.digestId,
      name: digests.name,
      active: digests.active,
      sources: digests.sources,
      sendOnlyWhenNew: digests.sendOnlyWhenNew,
      minSourcesToSend: digests.minSourcesToSend,
      shareToken: digests.shareToken,
      userId: users.userId,
      ownerEmail: users.email,
      ownerName: users.fullName,
      ownerConfirmed: users.confirmed,
      timeZone: userTimeZone,
      locale: sql<string>`coalesce(${users.locale}, 'en-US')`,
      // Whether the digest has any record of its sources' health: one that never failed has none.
      hadHealthRecords: sql<boolean>`exists (select 1 from source_health h where h.digest_id = ${digests.digestId})`,
      subscribers: subscribersOfDigest,
      lastBuildNumber: sql<
        number | null
      >`(select max(b.build_number) from digest_builds b where b.digest_id = ${digests.digestId})`,
      storedBytes: storedBytesOfOwner,
    })
    .from(issueRuns)
    .innerJoin(digests, eq(digests.digestId, issueRuns.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(eq(issueRuns.runId, sql.placeholder('runId')))
    .prepare('issues_find_run_for_build'),
);

/**
 * Saves `sources` as the digest's sources unless they changed since the build read them (`read`): an edit
 * by the owner meanwhile wins (a later build resolves again). Not an edit of the owner's: `updated_at` stays.
 */
export async function replaceSourcesIfUnchanged(
  db: Database,
  digestId: string,
  read: readonly Source[],
  sources: readonly Source[],
) {
  await db
    .update(digests)
    .set({ sources: [...sources] })
    .where(and(eq(digests.digestId, digestId), sql`${digests.sources} = ${JSON.stringify(read)}::jsonb`));
}

export async function finishRun(
  db: Database,
  runId: string,
  status: RunStatus,
  finishedAt: Date,
  details: { reason?: string; buildId?: string } = {},
) {
  await db
    .update(issueRuns)
    .set({ status, finishedAt, reason: details.reason ?? null, buildId: details.buildId ?? null })
    .where(eq(issueRuns.runId, runId));
}

/**
 * The deliveries of a run's issue still `pending` or `sending`: what an attempt of its build job that died
 * after storing the issue left for the next one to send (or, past the final dot, to mark uncertain).
 */
export async function unsentDeliveriesOfRun(db: Database, runId: string): Promise<string[]> {
  const rows = await db
    .select({ deliveryId: deliveries.deliveryId })
    .from(deliveries)
    .innerJoin(issueRuns, eq(issueRuns.buildId, deliveries.buildId))
    .where(and(eq(issueRuns.runId, runId), inArray(deliveries.state, ['pending', 'sending'])));
  return rows.map((row) => row.deliveryId);
}

/** The number the next issue will most likely get (checked again when it is stored). */
export async function peekNextBuildNumber(db: Database, digestId: string) {
  const [row] = await db
    .select({ last: sql<number | null>`max(${digestBuilds.buildNumber})` })
    .from(digestBuilds)
    .where(eq(digestBuilds.digestId, digestId));
  return Number(row?.last ?? 0) + 1;
}

/**
 * Locks the digest row so two builds of one digest that carry newsletters check them one after the other.
 * On its own: a statement that waited for the lock reads the rest of the database as it was before the
 * wait, so the newsletters and the number are read by the next statements.
 */
export async function lockDigest(tx: Database, digestId: string) {
  await tx.select({ id: digests.digestId }).from(digests).where(eq(digests.digestId, digestId)).for('update');
}

/** What `storeIssue` did: stored it, or nothing because its number was taken or an item was sent meanwhile. */
export type StoreIssueOutcome =
  | { stored: true; pendingDeliveryIds: string[] }
  | { stored: false; numberTaken: boolean; itemsCarried: boolean };

/** The reason the statement storing an issue fails with when another issue carried one of its items. */
const ITEMS_CARRIED_MEANWHILE = 'another issue of the digest carried some of these items meanwhile';

/**
 * Stores an issue with everything that goes with it, in one statement: the items it carried
 * (`insertSentItems`), the issue, its run marked built, and its deliveries. Only when `buildNumber` is still
 * the digest's next number and every item is new: otherwise it stores nothing and says why. An item another
 * issue carried meanwhile fails the statement (`abortStatementIf`), which undoes the items it had written,
 * so the statement needs no transaction of its own (in one, the transaction can then only roll back).
 * Without the digest's lock, a number an uncommitted issue took fails the unique index instead (once it
 * commits), and an item it carried is found once it commits (the insert waits for it). Four round trips
 * per issue of a burst were one each (≈ 14 statements an issue in all).
 */
export async function storeIssue(
  db: Database,
  issue: {
    runId: string;
    buildId: string;
    digestId: string;
    buildNumber: number;
    html: string;
    text: string;
    publicHtml: string;
    createdAt: Date;
    sentItems: SentItems;
    deliveries: readonly IssueDelivery[];
  },
): Promise<StoreIssueOutcome> {
  const at = issue.createdAt.toISOString();
  const numbered = sql`(select number from next) = ${issue.buildNumber}`;
  const stored = await rowsOf<{ numbered: boolean; all_new: boolean; pending: string[] }>(
    db,
    sql`
    with next as (
      select coalesce(max(build_number), 0) + 1 as number from digest_builds where digest_id = ${issue.digestId}
    ), items as (${insertSentItems(issue.sentItems, numbered)}
    ), checked as (
      select ${numbered} as numbered,
        (select count(*) from items) = ${uniqueKeys(issue.sentItems.keys).length} as all_new
    ), stored as (
      insert into digest_builds (build_id, digest_id, build_number, html, text, public_html, created_at)
      select ${issue.buildId}, ${issue.digestId}, ${issue.buildNumber}, ${issue.html}, ${issue.text},
        ${issue.publicHtml}, ${at}::timestamptz
      from checked where numbered and all_new
      returning build_id
    ), finished as (
      update issue_runs set status = 'built', finished_at = ${at}::timestamptz, reason = null,
        build_id = stored.build_id
      from stored where run_id = ${issue.runId}
    ), delivered as (${insertIssueDeliveries(sql`stored`, { digestId: issue.digestId, at: issue.createdAt }, issue.deliveries)}
    )
    select numbered, all_new,
      ${abortStatementIf(sql`numbered and not all_new`, ITEMS_CARRIED_MEANWHILE)} as aborted,
      array(select delivery_id::text from delivered where state = 'pending')::text[] as pending
    from checked`,
  ).catch((error: unknown) => {
    if (isAbortedStatement(error, ITEMS_CARRIED_MEANWHILE)) return 'items carried' as const;
    throw error;
  });
  if (stored === 'items carried') return { stored: false, numberTaken: false, itemsCarried: true };
  const [row] = stored;
  if (!row) throw new Error('storing the issue answered no row');
  if (row.numbered && row.all_new) return { stored: true, pendingDeliveryIds: row.pending };
  return { stored: false, numberTaken: !row.numbered, itemsCarried: !row.all_new };
}

/**
 * The account's oldest issues beyond `quotaBytes` (HTML and text, newest counted first), all but `keepBuildId`
 * (the issue just stored) and issues whose mail is still going out. Their deliveries go with them.
 */
export async function deleteIssuesBeyondQuota(
  db: Database,
  userId: string,
  keepBuildId: string,
  quotaBytes: number,
) {
  const size = sql`octet_length(${digestBuilds.html}) + octet_length(${digestBuilds.text})`;
  const newestFirst = db
    .select({
      buildId: digestBuilds.buildId,
      bytesSoFar:
        sql<number>`sum(${size}) over (order by ${digestBuilds.createdAt} desc, ${digestBuilds.buildId})`.as(
          'bytes_so_far',
        ),
    })
    .from(digestBuilds)
    .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId))
    .where(eq(digests.userId, userId))
    .as('newest_first');
  const sending = db
    .select({ id: deliveries.deliveryId })
    .from(deliveries)
    .where(
      and(eq(deliveries.buildId, digestBuilds.buildId), inArray(deliveries.state, ['pending', 'sending'])),
    );
  const deleted = await db
    .delete(digestBuilds)
    .where(
      and(
        inArray(
          digestBuilds.buildId,
          db
            .select({ buildId: newestFirst.buildId })
            .from(newestFirst)
            .where(gt(newestFirst.bytesSoFar, quotaBytes)),
        ),
        ne(digestBuilds.buildId, keepBuildId),
        notExists(sending),
      ),
    )
    .returning({ id: digestBuilds.buildId });
  return deleted.length;
}
