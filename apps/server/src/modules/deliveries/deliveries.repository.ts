import { and, desc, eq, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { preparedPerDatabase } from '#server/db/prepared-queries';
import {
  type DeliveryState,
  deliveries,
  digestBuilds,
  digestSubscribers,
  digests,
  issueRuns,
  users,
} from '#server/db/schema';

/** A delivery the build creates with its issue (the issue's id comes from the statement storing it). */
export interface IssueDelivery {
  deliveryId: string;
  recipient: string;
  kind: 'owner' | 'subscriber';
  subscriberId: string | null;
  state: 'held' | 'pending' | 'cancelled';
  lastError: string | null;
  messageId: string;
}

/**
 * The insert of an issue's deliveries as a part of the statement that stores the issue: one row per
 * delivery for the `build_id` of `stored` (that statement's part inserting the issue), none when it
 * inserted none. A recipient listed twice (an owner who also subscribed) gets one delivery. Each column
 * is one array parameter, so the statement's text is the same for any number of recipients.
 */
export function insertIssueDeliveries(
  stored: SQL,
  issue: { digestId: string; at: Date },
  rows: readonly IssueDelivery[],
): SQL {
  const column = (key: keyof IssueDelivery) => sql.param(rows.map((row) => row[key]));
  const at = issue.at.toISOString();
  return sql`
      insert into deliveries (delivery_id, build_id, digest_id, recipient, kind, subscriber_id, state,
        last_error, message_id, created_at, updated_at)
      select d.delivery_id::uuid, s.build_id, ${issue.digestId}, d.recipient, d.kind, d.subscriber_id::uuid,
        d.state, d.last_error, d.message_id, ${at}::timestamptz, ${at}::timestamptz
      from ${stored} as s, unnest(${column('deliveryId')}::text[], ${column('recipient')}::text[],
        ${column('kind')}::text[], ${column('subscriberId')}::text[], ${column('state')}::text[],
        ${column('lastError')}::text[], ${column('messageId')}::text[])
        as d(delivery_id, recipient, kind, subscriber_id, state, last_error, message_id)
      on conflict (build_id, recipient) do nothing
      returning delivery_id, state`;
}

/** An attempt's hold on a delivery: the row's `attempts` as its claim set it. */
export interface DeliveryClaim {
  deliveryId: string;
  attempts: number;
}

const claimed = { deliveryId: deliveries.deliveryId, attempts: deliveries.attempts };

type DeliveryUpdate = Parameters<ReturnType<Database['update']>['set']>[0];

/** What every claim writes: a new attempt number (an older attempt's marks then fail), and when. */
const nextAttempt = (now: Date | SQL) => ({
  attempts: sql`${deliveries.attempts} + 1`,
  sendingAt: now,
  updatedAt: now,
});

/** The time a prepared statement writes, given as `now` when it runs. */
const nowPlaceholder = sql`${sql.placeholder('now')}::timestamptz`;

/**
 * A claim and everything its e-mail needs, in one statement: the claim's UPDATE runs as a CTE and the
 * read joins what it returned (a round trip per delivery fewer than claiming, then reading). The joined
 * tables are read as they were when the statement started; the claim changes none of them.
 */
function claimWithMail(db: Database, set: DeliveryUpdate, where: SQL | undefined) {
  const row = db.$with('claimed').as(db.update(deliveries).set(set).where(where).returning(claimed));
  return db
    .with(row)
    .select({
      deliveryId: row.deliveryId,
      attempts: row.attempts,
      recipient: deliveries.recipient,
      kind: deliveries.kind,
      messageId: deliveries.messageId,
      bounceToken: deliveries.bounceToken,
      digestId: digests.digestId,
      digestName: digests.name,
      buildNumber: digestBuilds.buildNumber,
      /** The resume's "While you were away" issue (its subject says so). */
      catchUp: sql<boolean>`exists (select 1 from ${issueRuns} where ${issueRuns.buildId} = ${digestBuilds.buildId} and ${issueRuns.trigger} = 'catch_up')`,
      html: digestBuilds.html,
      text: digestBuilds.text,
      ownerId: users.userId,
      ownerEmail: users.email,
      ownerName: users.fullName,
      ownerConfirmed: users.confirmed,
      subscriberId: digestSubscribers.subscriberId,
      subscriberToken: digestSubscribers.token,
      subscriberGone: sql<boolean>`(${digestSubscribers.status} <> 'subscribed' or ${digestSubscribers.removedAt} is not null)`,
    })
    .from(row)
    .innerJoin(deliveries, eq(deliveries.deliveryId, row.deliveryId))
    .innerJoin(digestBuilds, eq(digestBuilds.buildId, deliveries.buildId))
    .innerJoin(digests, eq(digests.digestId, deliveries.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .leftJoin(digestSubscribers, eq(digestSubscribers.subscriberId, deliveries.subscriberId));
}

/** A claimed delivery with everything one e-mail of its issue needs. */
export type DeliveryToSend = Awaited<ReturnType<typeof claimWithMail>>[number];

/**
 * `pending → sending`: the one attempt that may send, the final dot still held back, with what to send.
 * Answers nothing when the row is not pending (sent already, failed for good, or left `sending` by an
 * attempt that died).
 */
export async function claimDelivery(
  db: Database,
  deliveryId: string,
  now: Date,
): Promise<DeliveryToSend | undefined> {
  const [row] = await preparedClaim(db).execute({ deliveryId, now });
  return row;
}

const preparedClaim = preparedPerDatabase((db) =>
  claimWithMail(
    db,
    { ...nextAttempt(nowPlaceholder), state: 'sending', beforeFinalDot: true },
    and(eq(deliveries.deliveryId, sql.placeholder('deliveryId')), eq(deliveries.state, 'pending')),
  ).prepare('deliveries_claim'),
);

/**
 * Claims again a row left `sending` by an attempt that died before the message's final dot: the server
 * discarded that message, so this attempt sends it. The new attempt number takes the claim from the old one
 * should it still be alive (its mark then fails and it stops before the final dot).
 */
export async function reclaimBeforeFinalDot(
  db: Database,
  deliveryId: string,
  now: Date,
): Promise<DeliveryToSend | undefined> {
  const [row] = await claimWithMail(
    db,
    nextAttempt(now),
    and(
      eq(deliveries.deliveryId, deliveryId),
      eq(deliveries.state, 'sending'),
      eq(deliveries.beforeFinalDot, true),
    ),
  );
  return row;
}

/**
 * The mark taken just before the final dot goes out: from now on the message may arrive. Only the attempt
 * holding the claim can take it, once; answers false otherwise (the claim was taken over), and that attempt
 * must not send the final dot.
 */
export async function markFinalDot(db: Database, claim: DeliveryClaim, now: Date) {
  const rows = await preparedMark(db).execute({ ...claim, now });
  return rows.length > 0;
}

const preparedMark = preparedPerDatabase((db) =>
  db
    .update(deliveries)
    .set({ beforeFinalDot: false, updatedAt: nowPlaceholder })
    .where(
      and(
        eq(deliveries.deliveryId, sql.placeholder('deliveryId')),
        eq(deliveries.state, 'sending'),
        eq(deliveries.beforeFinalDot, true),
        eq(deliveries.attempts, sql.placeholder('attempts')),
      ),
    )
    .returning({ deliveryId: deliveries.deliveryId })
    .prepare('deliveries_mark_final_dot'),
);

/** The owner's address is verified (true for social sign-ups and after a password reset). */
export async function isOwnerConfirmed(db: Database, userId: string) {
  const [row] = await db.select({ confirmed: users.confirmed }).from(users).where(eq(users.userId, userId));
  return row?.confirmed === true;
}

/**
 * Moves a claimed delivery out of `sending` (only its own claim, so a late attempt never overwrites a newer
 * one's state).
 */
export async function settleClaim(
  db: Database,
  claim: DeliveryClaim,
  to: DeliveryState,
  now: Date,
  lastError?: string,
) {
  await preparedSettle(db).execute({ ...claim, to, now, lastError: lastError ?? null });
}

/** `sent_at` is written only by a settle to `sent`, `last_error` only when one is given. */
const preparedSettle = preparedPerDatabase((db) =>
  db
    .update(deliveries)
    .set({
      state: sql`${sql.placeholder('to')}::text`,
      beforeFinalDot: false,
      updatedAt: nowPlaceholder,
      sentAt: sql`case when ${sql.placeholder('to')}::text = 'sent' then ${nowPlaceholder} else ${deliveries.sentAt} end`,
      lastError: sql`coalesce(${sql.placeholder('lastError')}::text, ${deliveries.lastError})`,
    })
    .where(
      and(
        eq(deliveries.deliveryId, sql.placeholder('deliveryId')),
        eq(deliveries.state, 'sending'),
        eq(deliveries.attempts, sql.placeholder('attempts')),
      ),
    )
    .prepare('deliveries_settle_claim'),
);

/**
 * `sending → uncertain` for a row whose attempt died after its final-dot mark (or before this mark existed):
 * the server may or may not have the message. Answers whether the row was such a one.
 */
export async function markInterruptedUncertain(db: Database, deliveryId: string, now: Date, reason: string) {
  const rows = await db
    .update(deliveries)
    .set({ state: 'uncertain', lastError: reason, updatedAt: now })
    .where(
      and(
        eq(deliveries.deliveryId, deliveryId),
        eq(deliveries.state, 'sending'),
        eq(deliveries.beforeFinalDot, false),
      ),
    )
    .returning({ deliveryId: deliveries.deliveryId });
  return rows.length > 0;
}

/**
 * Rows still `sending` since before `before` whose attempt died before the final dot and no retry came
 * back (the last one). With fewer than `maxAttempts` attempts they go back to `pending` (with the reason)
 * for a new job to send them; with `maxAttempts` or more they are `failed` for good, never having reached
 * the SMTP server's final dot (so nothing was delivered). Answers the ids each way.
 */
export async function settleStuckBeforeFinalDot(
  db: Database,
  options: { before: Date; now: Date; maxAttempts: number; requeueReason: string; failReason: string },
) {
  const stuck = (attempts: SQL) =>
    and(
      eq(deliveries.state, 'sending'),
      eq(deliveries.beforeFinalDot, true),
      lte(deliveries.sendingAt, options.before),
      attempts,
    );
  const requeued = await db
    .update(deliveries)
    .set({
      state: 'pending',
      beforeFinalDot: false,
      lastError: options.requeueReason,
      updatedAt: options.now,
    })
    .where(stuck(lt(deliveries.attempts, options.maxAttempts)))
    .returning({ deliveryId: deliveries.deliveryId });
  const failed = await db
    .update(deliveries)
    .set({ state: 'failed', beforeFinalDot: false, lastError: options.failReason, updatedAt: options.now })
    .where(stuck(gte(deliveries.attempts, options.maxAttempts)))
    .returning({ deliveryId: deliveries.deliveryId });
  return { requeued: requeued.map((row) => row.deliveryId), failed: failed.length };
}

/**
 * Rows `pending` and untouched since before `before`: a pending row is sent within minutes by the build
 * job that stored it or by its own job (whose retries wait at most 10 minutes), so one this old has
 * neither (every attempt of its build job failed after storing the issue). Touched, and answered for a
 * new job each.
 */
export async function touchForgottenPending(db: Database, before: Date, now: Date) {
  const rows = await db
    .update(deliveries)
    .set({ updatedAt: now })
    .where(and(eq(deliveries.state, 'pending'), lte(deliveries.updatedAt, before)))
    .returning({ deliveryId: deliveries.deliveryId });
  return rows.map((row) => row.deliveryId);
}

/**
 * Rows still `sending` since before `before`, their attempt dead after the final-dot mark and no retry
 * back (the last one): uncertain.
 */
export async function markStuckSendingUncertain(db: Database, before: Date, now: Date, reason: string) {
  const rows = await db
    .update(deliveries)
    .set({ state: 'uncertain', lastError: reason, updatedAt: now })
    .where(
      and(
        eq(deliveries.state, 'sending'),
        eq(deliveries.beforeFinalDot, false),
        lte(deliveries.sendingAt, before),
      ),
    )
    .returning({ deliveryId: deliveries.deliveryId });
  return rows.length;
}

/** What a bounce or complaint is about: the delivery and who it was for. */
const bouncedDelivery = {
  deliveryId: deliveries.deliveryId,
  digestId: deliveries.digestId,
  kind: deliveries.kind,
  recipient: deliveries.recipient,
  subscriberId: deliveries.subscriberId,
  bouncedAt: deliveries.bouncedAt,
  bounceKind: deliveries.bounceKind,
  bounceDiagnostic: deliveries.bounceDiagnostic,
};

export async function findDeliveryByBounceToken(db: Database, bounceToken: string) {
  const [row] = await db
    .select(bouncedDelivery)
    .from(deliveries)
    .where(eq(deliveries.bounceToken, bounceToken));
  return row;
}

/**
 * Records a bounce or complaint on the delivery with this token, unless one is recorded already: the first
 * report stays, except that a complaint replaces a bounce (the stronger signal wins, in one statement so two
 * reports at once cannot both count). Answers the delivery when this call changed it.
 */
export async function recordBounce(
  db: Database,
  bounceToken: string,
  report: { kind: 'bounce' | 'complaint'; diagnostic: string | null },
  now: Date,
) {
  const [row] = await db
    .update(deliveries)
    .set({ bouncedAt: now, bounceKind: report.kind, bounceDiagnostic: report.diagnostic, updatedAt: now })
    .where(
      and(
        eq(deliveries.bounceToken, bounceToken),
        report.kind === 'complaint'
          ? or(isNull(deliveries.bounceKind), eq(deliveries.bounceKind, 'bounce'))
          : isNull(deliveries.bounceKind),
      ),
    )
    .returning(bouncedDelivery);
  return row;
}

/**
 * The held deliveries of an account (docs/design.md §10), locked, newest issue of each digest first: the
 * release sends the newest and cancels the older ones.
 */
export function lockHeldDeliveries(tx: Database, userId: string) {
  return tx
    .select({
      deliveryId: deliveries.deliveryId,
      digestId: deliveries.digestId,
      buildId: deliveries.buildId,
      buildNumber: digestBuilds.buildNumber,
    })
    .from(deliveries)
    .innerJoin(digestBuilds, eq(digestBuilds.buildId, deliveries.buildId))
    .innerJoin(digests, eq(digests.digestId, deliveries.digestId))
    .where(and(eq(digests.userId, userId), eq(deliveries.state, 'held')))
    .orderBy(desc(digestBuilds.buildNumber))
    .for('update', { of: deliveries });
}

/** Moves held deliveries on (to `pending` to be sent, or `cancelled` with the reason). */
export async function settleHeld(
  tx: Database,
  deliveryIds: string[],
  to: DeliveryState,
  now: Date,
  lastError?: string,
) {
  if (deliveryIds.length === 0) return;
  await tx
    .update(deliveries)
    .set({ state: to, updatedAt: now, ...(lastError !== undefined ? { lastError } : {}) })
    .where(and(inArray(deliveries.deliveryId, deliveryIds), eq(deliveries.state, 'held')));
}
