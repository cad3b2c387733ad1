import { and, asc, eq, gt } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestBuilds, digestDrafts, digests, users } from '#server/db/schema';
import { digestSettingsColumns } from '#server/modules/digests/digests.repository';

/** The account's own profile fields: never its password hash, tokens or sessions. */
export async function findAccount(db: Database, userId: string) {
  const [row] = await db
    .select({
      email: users.email,
      fullName: users.fullName,
      username: users.username,
      bio: users.bio,
      timezone: users.timezone,
      locale: users.locale,
      method: users.method,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.userId, userId));
  return row;
}

/** Every digest of the owner with its settings; the share token (a capability, not a setting) left out. */
export function listDigestSettings(db: Database, userId: string) {
  return db
    .select({ ...digestSettingsColumns, sources: digests.sources })
    .from(digests)
    .where(eq(digests.userId, userId))
    .orderBy(asc(digests.createdAt), asc(digests.digestId));
}

export function listDrafts(db: Database, userId: string) {
  return db
    .select({
      draftId: digestDrafts.draftId,
      name: digestDrafts.name,
      sources: digestDrafts.sources,
      createdAt: digestDrafts.createdAt,
      updatedAt: digestDrafts.updatedAt,
    })
    .from(digestDrafts)
    .where(eq(digestDrafts.userId, userId))
    .orderBy(asc(digestDrafts.createdAt));
}

/** Up to `limit` issues of the owner's digest after issue `after`, oldest first, with their HTML. */
export function pageOfIssues(db: Database, userId: string, digestId: string, after: number, limit: number) {
  return db
    .select({
      buildNumber: digestBuilds.buildNumber,
      createdAt: digestBuilds.createdAt,
      html: digestBuilds.html,
    })
    .from(digestBuilds)
    .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId))
    .where(
      and(
        eq(digestBuilds.digestId, digestId),
        eq(digests.userId, userId),
        gt(digestBuilds.buildNumber, after),
      ),
    )
    .orderBy(asc(digestBuilds.buildNumber))
    .limit(limit);
}
