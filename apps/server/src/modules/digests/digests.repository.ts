import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { digestBuilds, digests, issueRuns, users } from '#server/db/schema';
import { userTimeZone } from '#server/modules/users/users.repository';

export type DigestRow = typeof digests.$inferSelect;
export type DigestChanges = Partial<
  Pick<
    typeof digests.$inferInsert,
    | 'name'
    | 'active'
    | 'scheduleType'
    | 'time'
    | 'weekDay'
    | 'monthDay'
    | 'sources'
    | 'updatedAt'
    | 'nextRunAt'
  >
>;

/**
 * The owner's row, locked until the transaction ends: digest creations of one user take turns, so the
 * 100-digest limit holds under concurrent requests. Undefined when the account is gone.
 */
export async function lockOwner(tx: Database, userId: string) {
  const [row] = await tx
    .select({ userId: users.userId, fullName: users.fullName, timezone: users.timezone })
    .from(users)
    .where(eq(users.userId, userId))
    .for('update');
  return row;
}

export async function findOwner(db: Database, userId: string) {
  const [row] = await db
    .select({ fullName: users.fullName, timezone: users.timezone })
    .from(users)
    .where(eq(users.userId, userId));
  return row;
}

export async function countDigests(db: Database, userId: string) {
  const [row] = await db.select({ total: count() }).from(digests).where(eq(digests.userId, userId));
  return row?.total ?? 0;
}

export async function insertDigest(tx: Database, values: typeof digests.$inferInsert) {
  const [row] = await tx.insert(digests).values(values).returning({ digestId: digests.digestId });
  if (!row) throw new Error('insert into digests returned no row');
  return row.digestId;
}

/** The owner's digest row (ownership in the query), optionally locked for an update. */
export async function findOwnedDigest(db: Database, userId: string, digestId: string, lock = false) {
  const query = db
    .select()
    .from(digests)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/*
 * Correlated subqueries, written with explicit table names: in a single-table select Drizzle renders
 * interpolated columns without their table, which would make `digest_id = digest_id` always true.
 */

/**
 * The friends the owner keeps on the digest (invited or subscribed: the list a PUT or PATCH sets) of the
 * digest in the outer query, oldest first, as a JSON array.
 */
const activeSubscribers = sql<string[]>`coalesce((
  select jsonb_agg(s.email order by s.subscribed_at, s.email)
  from digest_subscribers s
  where s.digest_id = "digests"."digest_id" and s.status in ('invited', 'subscribed') and s.removed_at is null
), '[]'::jsonb)`;

const latestBuildNumber = sql<number | null>`(
  select max(b.build_number) from digest_builds b where b.digest_id = "digests"."digest_id"
)`;

/** The owner's zone the schedule runs in (the default until the profile has one, as for sources). */
const ownerTimeZone = sql<string>`(select ${userTimeZone} from users where users.user_id = "digests"."user_id")`;

const summaryColumns = {
  digestId: digests.digestId,
  name: digests.name,
  active: digests.active,
  scheduleType: digests.scheduleType,
  time: digests.time,
  weekDay: digests.weekDay,
  monthDay: digests.monthDay,
  sources: digests.sources,
  createdAt: digests.createdAt,
  updatedAt: digests.updatedAt,
  nextRunAt: digests.nextRunAt,
  subscribers: activeSubscribers,
  latestBuildNumber,
  timeZone: ownerTimeZone,
};

export type DigestSummaryRow = Awaited<ReturnType<typeof listDigestSummaries>>[number];

/** The user's digests, newest first, with active subscribers and the latest issue number: one query. */
export function listDigestSummaries(db: Database, userId: string) {
  return db
    .select(summaryColumns)
    .from(digests)
    .where(eq(digests.userId, userId))
    .orderBy(desc(digests.createdAt), desc(digests.digestId));
}

export async function findDigestSummary(db: Database, userId: string, digestId: string) {
  const [row] = await db
    .select(summaryColumns)
    .from(digests)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)));
  return row;
}

/** Issues of the owner's digest, oldest first (owner in the query). */
export function listBuilds(db: Database, userId: string, digestId: string) {
  return db
    .select({ buildNumber: digestBuilds.buildNumber, createdAt: digestBuilds.createdAt })
    .from(digestBuilds)
    .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId))
    .where(and(eq(digestBuilds.digestId, digestId), eq(digests.userId, userId)))
    .orderBy(asc(digestBuilds.buildNumber));
}

/** The latest slot the scheduler took for the owner's digest (owner in the query); manual runs are left out. */
export async function findLastScheduledRun(db: Database, userId: string, digestId: string) {
  const [row] = await db
    .select({ slot: issueRuns.slot, status: issueRuns.status, reason: issueRuns.reason })
    .from(issueRuns)
    .innerJoin(digests, eq(digests.digestId, issueRuns.digestId))
    .where(
      and(eq(issueRuns.digestId, digestId), eq(digests.userId, userId), eq(issueRuns.trigger, 'schedule')),
    )
    .orderBy(desc(issueRuns.slot))
    .limit(1);
  return row;
}

/** Changes the owner's digest; false when it is not theirs (nothing changed). */
export async function updateDigest(db: Database, userId: string, digestId: string, changes: DigestChanges) {
  const rows = await db
    .update(digests)
    .set(changes)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)))
    .returning({ digestId: digests.digestId });
  return rows.length > 0;
}

/** Deletes the owner's digest with its subscribers and issues; false when it is not theirs. */
export async function deleteDigest(db: Database, userId: string, digestId: string) {
  const rows = await db
    .delete(digests)
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)))
    .returning({ digestId: digests.digestId });
  return rows.length > 0;
}

/** The builds of a digest, or its build with that number: ordered newest first, the first is the issue. */
const issueOf = (digestId: string, buildNumber?: number) =>
  buildNumber === undefined
    ? eq(digestBuilds.digestId, digestId)
    : and(eq(digestBuilds.digestId, digestId), eq(digestBuilds.buildNumber, buildNumber));

/** The stored HTML of one issue (the newest without a number). Public: no owner. */
export async function findBuildHtml(db: Database, digestId: string, buildNumber?: number) {
  const [row] = await db
    .select({ html: digestBuilds.html })
    .from(digestBuilds)
    .where(issueOf(digestId, buildNumber))
    .orderBy(desc(digestBuilds.buildNumber))
    .limit(1);
  return row?.html;
}

/**
 * What the link preview of an issue's public page shows (the latest issue when no number is given): the
 * digest, its owner's public profile fields and the issue's number. Undefined when there is no such issue.
 */
export async function findSharedIssue(db: Database, digestId: string, buildNumber?: number) {
  const [row] = await db
    .select({
      digestId: digests.digestId,
      name: digests.name,
      scheduleType: digests.scheduleType,
      sources: digests.sources,
      buildNumber: digestBuilds.buildNumber,
      ownerName: users.fullName,
      ownerPhotoId: users.photoId,
    })
    .from(digestBuilds)
    .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId))
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(issueOf(digestId, buildNumber))
    .orderBy(desc(digestBuilds.buildNumber))
    .limit(1);
  return row;
}

/** A user by username (any case) with what the public profile shows; undefined when there is none. */
export async function findPublicProfile(db: Database, username: string) {
  const [user] = await db
    .select({
      userId: users.userId,
      fullName: users.fullName,
      username: users.username,
      bio: users.bio,
      photoId: users.photoId,
    })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  if (!user?.username) return undefined;
  const list = await db
    .select({ digestId: digests.digestId, name: digests.name, latestBuildNumber })
    .from(digests)
    .where(eq(digests.userId, user.userId))
    .orderBy(desc(digests.createdAt), desc(digests.digestId));
  return { user: { ...user, username: user.username }, digests: list };
}
