import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  type DeliveryState,
  deliveries,
  digestBuilds,
  digestSubscribers,
  digests,
  issueRuns,
  type RunStatus,
  users,
} from '../../db/schema';
import { userTimeZone } from '../users/users.repository';

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

/** What a build needs: the run, its digest and the owner (zone, locale, e-mail, name). */
export async function findRunForBuild(db: Database, runId: string) {
  const [row] = await db
    .select({
      runId: issueRuns.runId,
      slot: issueRuns.slot,
      trigger: issueRuns.trigger,
      status: issueRuns.status,
      digestId: digests.digestId,
      name: digests.name,
      active: digests.active,
      sources: digests.sources,
      userId: users.userId,
      ownerEmail: users.email,
      ownerName: users.fullName,
      timeZone: userTimeZone,
      locale: sql<string>`coalesce(${users.locale}, 'en-US')`,
    })
    .from(issueRuns)
    .innerJoin(digests, eq(digests.digestId, issueRuns.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(eq(issueRuns.runId, runId));
  return row;
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

/** The number the next issue will most likely get (checked again under lock when it is stored). */
export async function peekNextBuildNumber(db: Database, digestId: string) {
  const [row] = await db
    .select({ last: sql<number | null>`max(${digestBuilds.buildNumber})` })
    .from(digestBuilds)
    .where(eq(digestBuilds.digestId, digestId));
  return Number(row?.last ?? 0) + 1;
}

/** Locks the digest row so two builds of one digest number their issues one after the other. */
export async function nextBuildNumber(tx: Database, digestId: string) {
  await tx.select({ id: digests.digestId }).from(digests).where(eq(digests.digestId, digestId)).for('update');
  return peekNextBuildNumber(tx, digestId);
}

export async function insertBuild(tx: Database, values: typeof digestBuilds.$inferInsert) {
  const [row] = await tx.insert(digestBuilds).values(values).returning({
    buildId: digestBuilds.buildId,
    buildNumber: digestBuilds.buildNumber,
    createdAt: digestBuilds.createdAt,
  });
  if (!row) throw new Error('insert into digest_builds returned no row');
  return row;
}

/** Active subscribers of a digest at build time: each gets a delivery of the issue. */
export function activeSubscribers(db: Database, digestId: string) {
  return db
    .select({ subscriberId: digestSubscribers.subscriberId, email: digestSubscribers.email })
    .from(digestSubscribers)
    .where(
      and(
        eq(digestSubscribers.digestId, digestId),
        isNull(digestSubscribers.unsubscribedAt),
        isNull(digestSubscribers.removedAt),
      ),
    )
    .orderBy(asc(digestSubscribers.subscribedAt));
}

export function insertDeliveries(tx: Database, rows: (typeof deliveries.$inferInsert)[]) {
  if (rows.length === 0) return Promise.resolve([]);
  return tx
    .insert(deliveries)
    .values(rows)
    .onConflictDoNothing({ target: [deliveries.buildId, deliveries.recipient] })
    .returning({ deliveryId: deliveries.deliveryId });
}

/**
 * `pending → sending`: the one attempt that may send. Answers nothing when the row is not pending
 * (sent already, failed for good, or left `sending` by an attempt that died).
 */
export async function claimDelivery(db: Database, deliveryId: string, now: Date) {
  const [row] = await db
    .update(deliveries)
    .set({ state: 'sending', attempts: sql`${deliveries.attempts} + 1`, sendingAt: now, updatedAt: now })
    .where(and(eq(deliveries.deliveryId, deliveryId), eq(deliveries.state, 'pending')))
    .returning({ deliveryId: deliveries.deliveryId });
  return row;
}

/** Everything one e-mail of an issue needs. */
export async function findDeliveryToSend(db: Database, deliveryId: string) {
  const [row] = await db
    .select({
      deliveryId: deliveries.deliveryId,
      recipient: deliveries.recipient,
      kind: deliveries.kind,
      messageId: deliveries.messageId,
      state: deliveries.state,
      digestId: digests.digestId,
      digestName: digests.name,
      buildNumber: digestBuilds.buildNumber,
      html: digestBuilds.html,
      text: digestBuilds.text,
      ownerEmail: users.email,
      ownerName: users.fullName,
      subscriberToken: digestSubscribers.token,
      subscriberGone: sql<boolean>`(${digestSubscribers.unsubscribedAt} is not null or ${digestSubscribers.removedAt} is not null)`,
    })
    .from(deliveries)
    .innerJoin(digestBuilds, eq(digestBuilds.buildId, deliveries.buildId))
    .innerJoin(digests, eq(digests.digestId, deliveries.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .leftJoin(digestSubscribers, eq(digestSubscribers.subscriberId, deliveries.subscriberId))
    .where(eq(deliveries.deliveryId, deliveryId));
  return row;
}

export async function findDeliveryState(db: Database, deliveryId: string) {
  const [row] = await db
    .select({ state: deliveries.state })
    .from(deliveries)
    .where(eq(deliveries.deliveryId, deliveryId));
  return row?.state as DeliveryState | undefined;
}

/** Moves a delivery out of `from` (only from it, so a late attempt never overwrites a newer state). */
export async function settleDelivery(
  db: Database,
  deliveryId: string,
  from: DeliveryState,
  to: DeliveryState,
  now: Date,
  lastError?: string,
) {
  const rows = await db
    .update(deliveries)
    .set({
      state: to,
      updatedAt: now,
      ...(to === 'sent' ? { sentAt: now } : {}),
      ...(lastError !== undefined ? { lastError } : {}),
    })
    .where(and(eq(deliveries.deliveryId, deliveryId), eq(deliveries.state, from)))
    .returning({ deliveryId: deliveries.deliveryId });
  return rows.length > 0;
}

/** Rows still `sending` since before `before`: their attempt died and no retry came back (the last one). */
export async function markStuckSendingUncertain(db: Database, before: Date, now: Date, reason: string) {
  const rows = await db
    .update(deliveries)
    .set({ state: 'uncertain', lastError: reason, updatedAt: now })
    .where(and(eq(deliveries.state, 'sending'), lte(deliveries.sendingAt, before)))
    .returning({ deliveryId: deliveries.deliveryId });
  return rows.length;
}
