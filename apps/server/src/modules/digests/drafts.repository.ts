import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestDrafts } from '#server/db/schema';

export type DraftRow = typeof digestDrafts.$inferSelect;

export async function insertDraft(db: Database, values: typeof digestDrafts.$inferInsert) {
  const [row] = await db.insert(digestDrafts).values(values).returning();
  if (!row) throw new Error('insert into digest_drafts returned no row');
  return row;
}

/** The user's drafts, most recently changed first. */
export function listDrafts(db: Database, userId: string) {
  return db
    .select()
    .from(digestDrafts)
    .where(eq(digestDrafts.userId, userId))
    .orderBy(desc(digestDrafts.updatedAt), desc(digestDrafts.draftId));
}

/** Changes the owner's draft; undefined when it is not theirs (nothing changed). */
export async function updateDraft(
  db: Database,
  userId: string,
  draftId: string,
  changes: Partial<Pick<typeof digestDrafts.$inferInsert, 'name' | 'sources' | 'updatedAt'>>,
) {
  const [row] = await db
    .update(digestDrafts)
    .set(changes)
    .where(and(eq(digestDrafts.draftId, draftId), eq(digestDrafts.userId, userId)))
    .returning();
  return row;
}

export async function deleteDraft(db: Database, userId: string, draftId: string) {
  const rows = await db
    .delete(digestDrafts)
    .where(and(eq(digestDrafts.draftId, draftId), eq(digestDrafts.userId, userId)))
    .returning({ draftId: digestDrafts.draftId });
  return rows.length > 0;
}

export async function countDrafts(db: Database, userId: string) {
  const [row] = await db.select({ total: count() }).from(digestDrafts).where(eq(digestDrafts.userId, userId));
  return row?.total ?? 0;
}
