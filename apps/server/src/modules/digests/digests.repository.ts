import type { SourceType } from '@digest/contracts';
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
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
    | 'issueRetentionMonths'
    | 'sendOnlyWhenNew'
    | 'minSourcesToSend'
    | 'sources'
    | 'updatedAt'
    | 'nextRunAt'
    | 'pausedAt'
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

/** How many friends the digest in the outer query keeps (counted as `activeSubscribers` lists them). */
const activeSubscriberCount = sql<number>`(
  select count(*)::int from digest_subscribers s
  where s.digest_id = "digests"."digest_id" and s.status in ('invited', 'subscribed') and s.removed_at is null
)`;

/** The kinds of the digest's sources, in order: the list needs no more of their settings. */
const sourceTypes = sql<SourceType[]>`jsonb_path_query_array("digests"."sources", '$[*].type')`;

/**
 * How many of the digest's sources failed at their last read (issue 17): records of removed sources are
 * pruned when the sources change, so every record is one of its sources.
 */
const failingSources = sql<number>`(
  select count(*)::int from source_health h
  where h.digest_id = "digests"."digest_id" and h.last_error_at is not null
    and (h.last_success_at is null or h.last_error_at > h.last_success_at)
)`;

const latestBuildNumber = sql<number | null>`(
  select max(b.build_number) from digest_builds b where b.digest_id = "digests"."digest_id"
)`;

/** The newest issue the public may read (one with a public copy). */
const latestPublicBuildNumber = sql<number | null>`(
  select max(b.build_number) from digest_builds b
  where b.digest_id = "digests"."digest_id" and b.public_html is not null
)`;

/** The owner's zone the schedule runs in (the default until the profile has one, as for sources). */
const ownerTimeZone = sql<string>`(select ${userTimeZone} from users where users.user_id = "digests"."user_id")`;

/** A digest's own settings, as its owner chose them: what its card and page show and what its archive keeps. */
export const digestSettingsColumns = {
  digestId: digests.digestId,
  name: digests.name,
  active: digests.active,
  scheduleType: digests.scheduleType,
  time: digests.time,
  weekDay: digests.weekDay,
  monthDay: digests.monthDay,
  issueRetentionMonths: digests.issueRetentionMonths,
  sendOnlyWhenNew: digests.sendOnlyWhenNew,
  minSourcesToSend: digests.minSourcesToSend,
  visibility: digests.visibility,
  createdAt: digests.createdAt,
  updatedAt: digests.updatedAt,
};

/** What a digest's card and its page both show. */
const commonColumns = {
  ...digestSettingsColumns,
  nextRunAt: digests.nextRunAt,
  pausedAt: digests.pausedAt,
  shareToken: digests.shareToken,
  latestBuildNumber,
  timeZone: ownerTimeZone,
};

export type DigestSummaryRow = Awaited<ReturnType<typeof listDigestSummaries>>[number];
export type DigestDetailRow = NonNullable<Awaited<ReturnType<typeof findDigestDetail>>>;

/**
 * The user's digests, newest first, as their cards show them (source kinds and a subscriber count, not the
 * sources' settings and the addresses): one query.
 */
export function listDigestSummaries(db: Database, userId: string) {
  return db
    .select({ ...commonColumns, sourceTypes, subscriberCount: activeSubscriberCount, failingSources })
    .from(digests)
    .where(eq(digests.userId, userId))
    .orderBy(desc(digests.createdAt), desc(digests.digestId));
}

/** One digest of the owner with its sources and active subscribers. */
export async function findDigestDetail(db: Database, userId: string, digestId: string) {
  const [row] = await db
    .select({ ...commonColumns, sources: digests.sources, subscribers: activeSubscribers })
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

/**
 * Turns the owner's public link on with `newToken` (a link already on keeps its token, so a repeated
 * request changes nothing) or off (the token is forgotten). Undefined when the digest is not theirs.
 */
export async function updateVisibility(
  db: Database,
  userId: string,
  digestId: string,
  change: { newToken: string | null; updatedAt: Date },
) {
  const { newToken, updatedAt } = change;
  const [row] = await db
    .update(digests)
    .set({
      visibility: newToken ? 'public' : 'private',
      shareToken: newToken ? sql`coalesce(${digests.shareToken}, ${newToken})` : null,
      updatedAt,
    })
    .where(and(eq(digests.digestId, digestId), eq(digests.userId, userId)))
    .returning({ visibility: digests.visibility, shareToken: digests.shareToken });
  return row;
}

/**
 * The full HTML of one issue, for the owner's signed link (the signature names the digest and the
 * issue; no other check can be made without a session).
 */
export async function findBuildHtml(db: Database, digestId: string, buildNumber: number) {
  const [row] = await db
    .select({ html: digestBuilds.html })
    .from(digestBuilds)
    .where(and(eq(digestBuilds.digestId, digestId), eq(digestBuilds.buildNumber, buildNumber)));
  return row?.html;
}

/**
 * The issues the public may read (docs/design.md §10): of the digest whose public link is on with this
 * token, those with a public copy (issues stored before copies existed have none). With a number, that
 * one; the newest first, so the first row is "the latest".
 */
const publicIssueOf = (shareToken: string, buildNumber?: number) =>
  and(
    eq(digests.shareToken, shareToken),
    eq(digests.visibility, 'public'),
    isNotNull(digestBuilds.publicHtml),
    buildNumber === undefined ? undefined : eq(digestBuilds.buildNumber, buildNumber),
  );

/** The public copy of an issue by the digest's share token (the newest without a number). */
export async function findPublicBuildHtml(db: Database, shareToken: string, buildNumber?: number) {
  const [row] = await db
    .select({ html: digestBuilds.publicHtml })
    .from(digestBuilds)
    .innerJoin(digests, eq(digests.digestId, digestBuilds.digestId))
    .where(publicIssueOf(shareToken, buildNumber))
    .orderBy(desc(digestBuilds.buildNumber))
    .limit(1);
  return row?.html ?? undefined;
}

/**
 * What the link preview of an issue's public page shows (the latest issue when no number is given): the
 * digest, its owner's public profile fields and the issue's number. Undefined when the public may not
 * read such an issue.
 */
export async function findSharedIssue(db: Database, shareToken: string, buildNumber?: number) {
  const [row] = await db
    .select({
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
    .where(publicIssueOf(shareToken, buildNumber))
    .orderBy(desc(digestBuilds.buildNumber))
    .limit(1);
  return row;
}

/**
 * What the feeds of a public digest are written from (docs/design.md §10): the digest whose public link is
 * on with this token, what its owner's public profile shows, and its newest `limit` issues that have a
 * public copy (numbers and dates only: `findPublicCopies` reads their HTML). Undefined for anything else.
 */
export async function findPublicFeed(db: Database, shareToken: string, limit: number) {
  const [digest] = await db
    .select({
      digestId: digests.digestId,
      name: digests.name,
      scheduleType: digests.scheduleType,
      updatedAt: digests.updatedAt,
      ownerName: users.fullName,
      ownerUsername: users.username,
      ownerUpdatedAt: users.updatedAt,
    })
    .from(digests)
    .innerJoin(users, eq(users.userId, digests.userId))
    .where(and(eq(digests.shareToken, shareToken), eq(digests.visibility, 'public')));
  if (!digest) return undefined;
  const issues = await db
    .select({
      buildId: digestBuilds.buildId,
      buildNumber: digestBuilds.buildNumber,
      createdAt: digestBuilds.createdAt,
    })
    .from(digestBuilds)
    .where(and(eq(digestBuilds.digestId, digest.digestId), isNotNull(digestBuilds.publicHtml)))
    .orderBy(desc(digestBuilds.buildNumber))
    .limit(limit);
  return { ...digest, issues };
}

/** The public copies of these issues of one digest, by build id. */
export async function findPublicCopies(db: Database, digestId: string, buildIds: string[]) {
  if (buildIds.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ buildId: digestBuilds.buildId, publicHtml: digestBuilds.publicHtml })
    .from(digestBuilds)
    .where(and(eq(digestBuilds.digestId, digestId), inArray(digestBuilds.buildId, buildIds)));
  return new Map(rows.map((row) => [row.buildId, row.publicHtml ?? '']));
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
  // Public and running only: a paused digest sends nothing new, and a private one is nobody else's business.
  const list = await db
    .select({
      shareToken: digests.shareToken,
      name: digests.name,
      latestBuildNumber: latestPublicBuildNumber,
    })
    .from(digests)
    .where(and(eq(digests.userId, user.userId), eq(digests.visibility, 'public'), eq(digests.active, true)))
    .orderBy(desc(digests.createdAt), desc(digests.digestId));
  return { user: { ...user, username: user.username }, digests: list };
}
