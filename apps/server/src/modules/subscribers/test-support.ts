/** Test support for the subscribers module: reading subscriber rows straight from the database. */
import { and, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestSubscribers } from '#server/db/schema';

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
