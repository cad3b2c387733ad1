import { type Subscriber, type Subscription, sharedMessage } from '@digest/contracts';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import { randomToken } from '#server/platform/crypto';
import { subscribersErrors } from './subscribers.errors';
import * as repository from './subscribers.repository';

/**
 * The notice rule: an address gets at most one "shared with you" e-mail per digest per 7 days. Adding a
 * new address notifies it. Re-adding an address the owner removed restores it, notified again only when
 * the last notice is older than 7 days. Re-adding an address that unsubscribed resubscribes it with a
 * new notice, so it is refused while the last notice is younger than 7 days: the owner cannot make a
 * friend who left receive mail again and again.
 */
export const NOTICE_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;

export interface SubscribersDeps {
  db: Database;
  clock: Clock;
  /** Queues the "shared with you" notices of these subscribers (after the change committed; none when empty). */
  notify(subscriberIds: string[]): Promise<void>;
}

const recentlyNotified = (row: repository.SubscriberRow, now: Date) =>
  row.notifiedAt !== null && now.getTime() - row.notifiedAt.getTime() < NOTICE_INTERVAL_MS;

/**
 * Makes `emails` (normalised, unique) the digest's active subscribers, inside the caller's transaction
 * (the digest row must be locked or new). Active ones left out are removed; unsubscribed ones left out
 * stay as they are. Answers the subscribers to notify; refuses the whole change (422) when an address
 * that unsubscribed cannot be invited again yet.
 */
export async function applySubscriberList(tx: Database, digestId: string, emails: string[], now: Date) {
  const rows = await repository.allSubscriberRows(tx, digestId);
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  const wanted = new Set(emails);

  const refused = emails.flatMap((email) => {
    const row = byEmail.get(email);
    if (!row || row.unsubscribedAt === null || !recentlyNotified(row, now)) return [];
    return [{ email, until: new Date((row.notifiedAt as Date).getTime() + NOTICE_INTERVAL_MS) }];
  });
  if (refused.length > 0) throw subscribersErrors.unsubscribedRecently(refused);

  const toNotify: string[] = [];
  for (const email of emails) {
    const row = byEmail.get(email);
    if (!row) {
      const inserted = await repository.insertSubscriber(tx, {
        digestId,
        email,
        token: randomToken(),
        subscribedAt: now,
        notifiedAt: now,
        noticePending: true,
      });
      toNotify.push(inserted.subscriberId);
    } else if (row.unsubscribedAt !== null) {
      // Resubscribed by the owner: a new notice. The token stays, so the links of earlier mails work too.
      await repository.updateSubscriber(tx, row.subscriberId, {
        subscribedAt: now,
        unsubscribedAt: null,
        removedAt: null,
        notifiedAt: now,
        noticePending: true,
      });
      toNotify.push(row.subscriberId);
    } else if (row.removedAt !== null) {
      const notice = !recentlyNotified(row, now);
      await repository.updateSubscriber(tx, row.subscriberId, {
        subscribedAt: now,
        removedAt: null,
        ...(notice ? { notifiedAt: now, noticePending: true } : {}),
      });
      if (notice) toNotify.push(row.subscriberId);
    }
  }
  for (const row of rows) {
    if (!wanted.has(row.email) && row.removedAt === null && row.unsubscribedAt === null) {
      await repository.updateSubscriber(tx, row.subscriberId, { removedAt: now });
    }
  }
  return toNotify;
}

function presentSubscriber(row: {
  email: string;
  subscribedAt: Date;
  unsubscribedAt: Date | null;
}): Subscriber {
  return {
    email: row.email,
    status: row.unsubscribedAt ? 'unsubscribed' : 'subscribed',
    subscribedAt: row.subscribedAt.toISOString(),
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
  };
}

async function visibleSubscribers(deps: SubscribersDeps, userId: string, digestId: string) {
  const rows = await repository.listVisibleSubscribers(deps.db, userId, digestId);
  return rows.map(presentSubscriber);
}

const activeCount = (subscribers: Subscriber[]) =>
  subscribers.filter((subscriber) => subscriber.status === 'subscribed').length;

export async function listSubscribers(deps: SubscribersDeps, userId: string, digestId: string) {
  if (!(await repository.ownsDigest(deps.db, userId, digestId))) throw subscribersErrors.digestNotFound();
  return visibleSubscribers(deps, userId, digestId);
}

/** `PUT /digests/{id}/subscribers`: sets the list, notifies new subscribers. */
export async function setSubscribers(
  deps: SubscribersDeps,
  userId: string,
  digestId: string,
  emails: string[],
) {
  const now = deps.clock.now();
  const toNotify = await deps.db.transaction(async (tx) => {
    if (!(await repository.lockOwnedDigest(tx, userId, digestId))) throw subscribersErrors.digestNotFound();
    return applySubscriberList(tx, digestId, emails, now);
  });
  await deps.notify(toNotify);
  const subscribers = await visibleSubscribers(deps, userId, digestId);
  return { message: sharedMessage(activeCount(subscribers)), subscribers };
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

function presentSubscription(
  row: NonNullable<Awaited<ReturnType<typeof repository.findSubscriptionByToken>>>,
): Subscription {
  return {
    digestName: row.digestName,
    email: maskEmail(row.email),
    status: row.unsubscribedAt || row.removedAt ? 'unsubscribed' : 'subscribed',
  };
}

/** What an unsubscribe link stands for. Reading it changes nothing. */
export async function getSubscription(deps: Pick<SubscribersDeps, 'db'>, token: string) {
  const row = await repository.findSubscriptionByToken(deps.db, token);
  if (!row) throw subscribersErrors.subscriptionNotFound();
  return presentSubscription(row);
}

/** One-click unsubscribe (RFC 8058) and the confirmation page's button; doing it twice is harmless. */
export async function unsubscribe(deps: Pick<SubscribersDeps, 'db' | 'clock'>, token: string) {
  const row = await repository.unsubscribeByToken(deps.db, token, deps.clock.now());
  if (!row) throw subscribersErrors.subscriptionNotFound();
  const subscription = presentSubscription(row);
  return { message: `You will no longer receive "${row.digestName}".`, subscription };
}
