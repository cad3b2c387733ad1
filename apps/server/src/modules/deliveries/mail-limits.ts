import { MAIL_LIMIT_MESSAGES } from '@digest/contracts';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { mailRecipientLog, users } from '#server/db/schema';
import { AppError } from '#server/platform/http/errors';

/**
 * Mail limits (docs/design.md §10): an address gets at most this many invitations a day from all owners
 * together, so creating, deleting and creating digests again (or many accounts) cannot flood one inbox.
 */
export const INVITATIONS_PER_ADDRESS_PER_DAY = 3;
export const MAIL_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;

export const mailLimitErrors = {
  dailyRecipients: (max: number) =>
    new AppError(422, 'DAILY_RECIPIENT_LIMIT', MAIL_LIMIT_MESSAGES.dailyRecipients(max)),
  invitedTooOften: (email: string, until: Date) =>
    new AppError(422, 'INVITATION_LIMIT', MAIL_LIMIT_MESSAGES.invitedTooOften(email, until)),
};

/** Locks the account's row so two changes of one account count its recipients one after the other. */
export async function lockAccount(tx: Database, userId: string) {
  await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, userId)).for('update');
}

export async function logRecipients(
  tx: Database,
  userId: string,
  emails: string[],
  kind: 'invitation' | 'issue',
  now: Date,
) {
  if (emails.length === 0) return;
  await tx.insert(mailRecipientLog).values(emails.map((email) => ({ userId, email, kind, createdAt: now })));
}

/** Distinct addresses (not the owner's) the account caused mail to in the last day. */
export async function recipientsOfLastDay(tx: Database, userId: string, now: Date) {
  const rows = await tx
    .selectDistinct({ email: mailRecipientLog.email })
    .from(mailRecipientLog)
    .where(
      and(
        eq(mailRecipientLog.userId, userId),
        gt(mailRecipientLog.createdAt, new Date(now.getTime() - MAIL_LIMIT_WINDOW_MS)),
      ),
    );
  return new Set(rows.map((row) => row.email));
}

/**
 * Refuses (422, nothing changed: the caller's transaction rolls back) invitations to `emails` when one of
 * them had its share of invitations in the last day, or when the account would mail more than
 * `recipientsPerDay` different people in a day. Records them otherwise.
 */
export async function admitInvitations(
  tx: Database,
  userId: string,
  emails: string[],
  recipientsPerDay: number,
  now: Date,
) {
  if (emails.length === 0) return;
  const since = new Date(now.getTime() - MAIL_LIMIT_WINDOW_MS);
  const counts = await tx
    .select({
      email: mailRecipientLog.email,
      count: sql<number>`count(*)::int`,
      oldest: sql<Date>`min(${mailRecipientLog.createdAt})`,
    })
    .from(mailRecipientLog)
    .where(
      and(
        inArray(mailRecipientLog.email, emails),
        eq(mailRecipientLog.kind, 'invitation'),
        gt(mailRecipientLog.createdAt, since),
      ),
    )
    .groupBy(mailRecipientLog.email);
  const full = counts.find((row) => Number(row.count) >= INVITATIONS_PER_ADDRESS_PER_DAY);
  if (full) {
    throw mailLimitErrors.invitedTooOften(
      full.email,
      new Date(new Date(full.oldest).getTime() + MAIL_LIMIT_WINDOW_MS),
    );
  }
  const already = await recipientsOfLastDay(tx, userId, now);
  const added = emails.filter((email) => !already.has(email));
  if (already.size + added.length > recipientsPerDay) throw mailLimitErrors.dailyRecipients(recipientsPerDay);
  await logRecipients(tx, userId, emails, 'invitation', now);
}
