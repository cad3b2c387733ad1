/** Test support for the subscribers module: reading subscriber rows straight from the database. */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestSubscribers, type SUBSCRIBER_STATES } from '#server/db/schema';

type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

export function subscriberRows(db: Database, digestId: string) {
  return db.select().from(digestSubscribers).where(eq(digestSubscribers.digestId, digestId));
}

export async function subscriberRow(db: Database, digestId: string, email: string) {
  const [row] = await db
    .select()
    .from(digestSubscribers)
    .where(and(eq(digestSubscribers.digestId, digestId), eq(digestSubscribers.email, email)));
  if (!row) throw new Error(`no subscriber ${email}`);
  return row;
}

/**
 * Friends in a given state written straight into the database, as if they had answered their invitation
 * (no invitation mail, no mail limits): tests of issues start from subscribers who accepted.
 */
export async function addFriends(
  db: Database,
  digestId: string,
  emails: string[],
  status: SubscriberState = 'subscribed',
) {
  await db
    .insert(digestSubscribers)
    .values(emails.map((email) => ({ digestId, email, status, token: randomBytes(16).toString('hex') })));
}
