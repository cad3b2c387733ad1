import { type Subscriber, type SubscriberStatus, type Subscription, sharedMessage } from '@digest/contracts';
import type { Database } from '#server/db/client';
import { admitInvitations, lockAccount } from '#server/modules/deliveries/mail-limits';
import {
  liftOwnerSuppression,
  suppress,
  suppressedFor,
} from '#server/modules/deliveries/suppressions.repository';
import type { Clock } from '#server/platform/clock';
import { randomToken } from '#server/platform/crypto';
import { subscribersErrors } from './subscribers.errors';
import * as repository from './subscribers.repository';

/**
 * The invitation rule (docs/design.md §10, double opt-in): adding a friend sends one invitation; issues go
 * only to friends who accepted it. An address gets at most one invitation per digest per 7 days: re-adding
 * an address the owner removed restores it as it was, invited again only when the last invitation is older
 * than 7 days. An address on the suppression list (it declined or unsubscribed from this owner, bounced, or
 * asked never to be invited) is listed with that status and mailed nothing.
 */
export const NOTICE_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;

export interface SubscribersDeps {
  db: Database;
  clock: Clock;
  /** Queues the invitations of these friends (after the change committed; none when empty). */
  notify(subscriberIds: string[]): Promise<void>;
  /** MAIL_RECIPIENTS_PER_DAY: different people (not the owner) an account may mail in a day. */
  recipientsPerDay: number;
}

const recentlyNotified = (row: repository.SubscriberRow, now: Date) =>
  row.notifiedAt !== null && now.getTime() - row.notifiedAt.getTime() < NOTICE_INTERVAL_MS;

const KEPT_STATUSES: readonly string[] = ['invited', 'subscribed'];

export interface SubscriberListChange {
  userId: string;
  digestId: string;
  /** Normalised and unique. */
  emails: string[];
  now: Date;
  recipientsPerDay: number;
}

/**
 * Makes `emails` the digest's friends, inside the caller's transaction (the digest row must be locked or
 * new). Invited and subscribed ones left out are removed; declined, unsubscribed and bouncing ones stay
 * listed. Answers the friends to invite; refuses the whole change (422, the transaction rolls back) when
 * an invitation would break a mail limit (per address across owners, or the account's daily recipients).
 */
export async function applySubscriberList(
  tx: Database,
  { userId, digestId, emails, now, recipientsPerDay }: SubscriberListChange,
) {
  const rows = await repository.allSubscriberRows(tx, digestId);
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  const wanted = new Set(emails);
  const suppressed = await suppressedFor(tx, userId, emails);

  const invite = { notifiedAt: now, noticePending: true, status: 'invited' } as const;
  const toNotify: { subscriberId: string; email: string }[] = [];
  for (const email of emails) {
    const row = byEmail.get(email);
    const blocked = suppressed.get(email);
    if (!row) {
      const inserted = await repository.insertSubscriber(tx, {
        digestId,
        email,
        token: randomToken(),
        subscribedAt: now,
        ...(blocked ? { status: blocked } : invite),
      });
      if (!blocked) toNotify.push(inserted);
    } else if (row.removedAt !== null) {
      const restored = { subscribedAt: now, removedAt: null };
      if (blocked) {
        await repository.updateSubscriber(tx, row.subscriberId, { ...restored, status: blocked });
      } else if (KEPT_STATUSES.includes(row.status) && recentlyNotified(row, now)) {
        await repository.updateSubscriber(tx, row.subscriberId, restored);
      } else {
        // The token stays, so the links of earlier mails work too.
        await repository.updateSubscriber(tx, row.subscriberId, { ...restored, ...invite });
        toNotify.push(row);
      }
    }
  }
  for (const row of rows) {
    if (!wanted.has(row.email) && row.removedAt === null && KEPT_STATUSES.includes(row.status)) {
      await repository.updateSubscriber(tx, row.subscriberId, { removedAt: now });
    }
  }
  if (toNotify.length > 0) {
    await lockAccount(tx, userId);
    await admitInvitations(
      tx,
      userId,
      toNotify.map((row) => row.email),
      recipientsPerDay,
      now,
    );
  }
  return toNotify.map((row) => row.subscriberId);
}

function presentSubscriber(row: {
  email: string;
  status: string;
  subscribedAt: Date;
  unsubscribedAt: Date | null;
}): Subscriber {
  return {
    email: row.email,
    status: row.status as SubscriberStatus,
    subscribedAt: row.subscribedAt.toISOString(),
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
  };
}

async function visibleSubscribers(deps: SubscribersDeps, userId: string, digestId: string) {
  const rows = await repository.listVisibleSubscribers(deps.db, userId, digestId);
  return rows.map(presentSubscriber);
}

/** Friends the digest is shared with: those who accepted and those whose invitation is open. */
const sharedCount = (subscribers: Subscriber[]) =>
  subscribers.filter((subscriber) => KEPT_STATUSES.includes(subscriber.status)).length;

export async function listSubscribers(deps: SubscribersDeps, userId: string, digestId: string) {
  if (!(await repository.ownsDigest(deps.db, userId, digestId))) throw subscribersErrors.digestNotFound();
  return visibleSubscribers(deps, userId, digestId);
}

/** `PUT /digests/{id}/subscribers`: sets the list, invites new friends. */
export async function setSubscribers(
  deps: SubscribersDeps,
  userId: string,
  digestId: string,
  emails: string[],
) {
  const now = deps.clock.now();
  const toNotify = await deps.db.transaction(async (tx) => {
    if (!(await repository.lockOwnedDigest(tx, userId, digestId))) throw subscribersErrors.digestNotFound();
    return applySubscriberList(tx, {
      userId,
      digestId,
      emails,
      now,
      recipientsPerDay: deps.recipientsPerDay,
    });
  });
  await deps.notify(toNotify);
  const subscribers = await visibleSubscribers(deps, userId, digestId);
  return { message: sharedMessage(sharedCount(subscribers)), subscribers };
}

export async function removeSubscriber(
  deps: SubscribersDeps,
  userId: string,
  digestId: string,
  email: string,
) {
  if (!(await repository.ownsDigest(deps.db, userId, digestId))) throw subscribersErrors.digestNotFound();
  const normalised = email.trim().toLowerCase();
  const removed = await repository.removeSubscriber(deps.db, userId, digestId, normalised, deps.clock.now());
  if (!removed) throw subscribersErrors.subscriberNotFound(normalised);
  const subscribers = await visibleSubscribers(deps, userId, digestId);
  return { message: `${normalised} no longer receives this Digest.`, subscribers };
}

/** `j***@example.com`: enough for the reader to recognise their address, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof repository.findSubscriptionByToken>>>;

/** Who shared the digest, as the friend reads it: the owner's name, or their masked address. */
export const ownerNameOf = (row: { ownerName: string | null; ownerEmail: string }) =>
  row.ownerName?.trim() || maskEmail(row.ownerEmail);

function presentSubscription(row: SubscriptionRow): Subscription {
  return {
    digestName: row.digestName,
    ownerName: ownerNameOf(row),
    scheduleType: row.scheduleType as Subscription['scheduleType'],
    email: maskEmail(row.email),
    // The owner removed them: whatever they answered, nothing comes any more.
    status: row.removedAt ? 'unsubscribed' : (row.status as SubscriberStatus),
  };
}

async function subscriptionOf(db: Database, token: string) {
  const row = await repository.findSubscriptionByToken(db, token);
  if (!row) throw subscribersErrors.subscriptionNotFound();
  return row;
}

/** What an invitation or unsubscribe link stands for. Reading it changes nothing. */
export async function getSubscription(deps: Pick<SubscribersDeps, 'db'>, token: string) {
  return presentSubscription(await subscriptionOf(deps.db, token));
}

type AnswerDeps = Pick<SubscribersDeps, 'db' | 'clock'>;

async function answered(deps: AnswerDeps, token: string, message: (row: SubscriptionRow) => string) {
  const row = await subscriptionOf(deps.db, token);
  return { message: message(row), subscription: presentSubscription(row) };
}

/**
 * One-click unsubscribe (RFC 8058) and the confirmation page's button; doing it twice is harmless. The
 * owner may not invite the address again (suppression list).
 */
export async function unsubscribe(deps: AnswerDeps, token: string) {
  const row = await subscriptionOf(deps.db, token);
  const now = deps.clock.now();
  await repository.answerByToken(deps.db, token, 'unsubscribed', now);
  await suppress(deps.db, row.email, row.ownerId, 'unsubscribed', now);
  return answered(deps, token, ({ digestName }) => `You will no longer receive "${digestName}".`);
}

/** The invitation page's Accept: issues start; an earlier "no" to this owner is lifted. */
export async function acceptInvitation(deps: AnswerDeps, token: string) {
  const row = await subscriptionOf(deps.db, token);
  if (row.removedAt) throw subscribersErrors.invitationWithdrawn();
  await repository.answerByToken(deps.db, token, 'subscribed', deps.clock.now());
  await liftOwnerSuppression(deps.db, row.email, row.ownerId);
  return answered(
    deps,
    token,
    ({ digestName }) => `You will receive "${digestName}". Every issue has a link to unsubscribe.`,
  );
}

/** The invitation page's Decline: nothing is sent, and this owner cannot invite the address again. */
export async function declineInvitation(deps: AnswerDeps, token: string) {
  const row = await subscriptionOf(deps.db, token);
  const now = deps.clock.now();
  if (row.status !== 'unsubscribed') await repository.answerByToken(deps.db, token, 'declined', now);
  await suppress(deps.db, row.email, row.ownerId, 'declined', now);
  return answered(
    deps,
    token,
    (current) =>
      `You will not receive "${current.digestName}", and ${ownerNameOf(current)} cannot invite you again.`,
  );
}

/** "Never invite me again": declines, and no owner can invite the address any more. */
export async function blockInvitations(deps: AnswerDeps, token: string) {
  const row = await subscriptionOf(deps.db, token);
  const now = deps.clock.now();
  if (row.status !== 'unsubscribed') await repository.answerByToken(deps.db, token, 'declined', now);
  await suppress(deps.db, row.email, null, 'refused', now);
  return answered(deps, token, () => 'Nobody can invite this address to a Digest again.');
}
