import {
  CATCH_UP_MESSAGES,
  catchesUp,
  DIGEST_NAME_MAX_LENGTH,
  type DigestCreate,
  type DigestPatch,
  type DigestVisibility,
  defaultDigestName,
  MAX_DIGESTS,
  pausedLongerThanPeriod,
  type ScheduleType,
  type Source,
} from '@digest/contracts';
import type { Database } from '#server/db/client';
import { nextRunFor } from '#server/modules/schedule/reschedule';
import { pruneHealth } from '#server/modules/source-health/source-health.usecases';
import { applySubscriberList } from '#server/modules/subscribers/subscribers.usecases';
import type { Clock } from '#server/platform/clock';
import { randomToken } from '#server/platform/crypto';
import type { DigestListCache } from './digest-list-cache';
import { digestsErrors } from './digests.errors';
import { presentDigest, presentDigestSummary, presentVisibility } from './digests.presenter';
import * as repository from './digests.repository';
import type { IssueLinks } from './issue-links';

export interface DigestsDeps {
  db: Database;
  clock: Clock;
  /** APP_URL: the public pages' addresses. */
  appUrl: string;
  /** Signs the owner's links to the full HTML of their issues. */
  issueLinks: IssueLinks;
  /** Queues the invitation of each newly invited friend (after the change committed). */
  notify(subscriberIds: string[]): Promise<void>;
  /** MAIL_RECIPIENTS_PER_DAY: different people (not the owner) an account may mail in a day. */
  recipientsPerDay: number;
  /** Users' lists kept until the database says they changed. */
  listCache: DigestListCache;
  /** Queues the one "While you were away" issue of a resume, in its transaction (modules/issues). */
  queueCatchUp(tx: Database, digestId: string, window: { since: Date; until: Date }): Promise<void>;
}

export function listDigests(deps: Pick<DigestsDeps, 'db' | 'appUrl' | 'listCache'>, userId: string) {
  return deps.listCache.read(userId, async () => {
    const rows = await repository.listDigestSummaries(deps.db, userId);
    return rows.map((row) => presentDigestSummary(row, deps.appUrl));
  });
}

export async function getDigest(
  deps: Pick<DigestsDeps, 'db' | 'appUrl' | 'issueLinks'>,
  userId: string,
  digestId: string,
) {
  const [row, builds, lastRun] = await Promise.all([
    repository.findDigestDetail(deps.db, userId, digestId),
    repository.listBuilds(deps.db, userId, digestId),
    repository.findLastScheduledRun(deps.db, userId, digestId),
  ]);
  if (!row) throw digestsErrors.digestNotFound();
  return presentDigest(deps, row, builds, lastRun);
}

/**
 * `PUT /digests/{id}/visibility` (docs/design.md §10): `public` turns the public link on with a new random
 * token (256 bits), `private` turns it off and forgets the token, so a link given out before never works
 * again, even once the link is turned back on.
 */
export async function setVisibility(
  deps: Pick<DigestsDeps, 'db' | 'clock' | 'appUrl'>,
  userId: string,
  digestId: string,
  visibility: DigestVisibility,
) {
  const row = await repository.updateVisibility(deps.db, userId, digestId, {
    newToken: visibility === 'public' ? randomToken() : null,
    updatedAt: deps.clock.now(),
  });
  if (!row) throw digestsErrors.digestNotFound();
  return presentVisibility(deps.appUrl, row);
}

/**
 * Locks the owner and checks the 100-digest rule (docs/product.md §5: no new digest when the user already has more
 * than 99) for `adding` new digests. The lock holds until the transaction ends, so concurrent creations cannot
 * pass it together.
 */
async function lockOwnerWithRoom(tx: Database, userId: string, adding = 1) {
  const owner = await repository.lockOwner(tx, userId);
  if (!owner) throw digestsErrors.accountGone();
  const room = MAX_DIGESTS - (await repository.countDigests(tx, userId));
  if (adding > room)
    throw adding === 1 ? digestsErrors.tooManyDigests() : digestsErrors.noRoomFor(adding, room);
  return owner;
}

type Owner = Awaited<ReturnType<typeof lockOwnerWithRoom>>;

/** One new digest of a locked owner: an empty name becomes "{full name}'s Digest"; friends are invited. */
async function insertNewDigest(
  tx: Database,
  deps: Pick<DigestsDeps, 'recipientsPerDay'>,
  owner: Owner,
  userId: string,
  body: DigestCreate,
  now: Date,
) {
  const digestId = await repository.insertDigest(tx, {
    userId,
    name: body.name || defaultDigestName(owner.fullName),
    active: body.active,
    scheduleType: body.scheduleType,
    time: body.time,
    weekDay: body.weekDay,
    monthDay: body.monthDay,
    issueRetentionMonths: body.issueRetentionMonths,
    sendOnlyWhenNew: body.sendOnlyWhenNew,
    minSourcesToSend: body.minSourcesToSend,
    sources: body.sources,
    nextRunAt: nextRunFor(body, owner.timezone, now),
    pausedAt: body.active ? null : now,
    createdAt: now,
    updatedAt: now,
  });
  const toNotify = await applySubscriberList(tx, {
    userId,
    digestId,
    emails: body.subscribers,
    now,
    recipientsPerDay: deps.recipientsPerDay,
  });
  return { digestId, toNotify };
}

/** `POST /digests`: an empty name becomes "{full name}'s Digest"; friends get an invitation. */
export async function createDigest(deps: DigestsDeps, userId: string, body: DigestCreate) {
  const now = deps.clock.now();
  const { digestId, toNotify } = await deps.db.transaction(async (tx) =>
    insertNewDigest(tx, deps, await lockOwnerWithRoom(tx, userId), userId, body, now),
  );
  await deps.notify(toNotify);
  return getDigest(deps, userId, digestId);
}

/**
 * Several digests at once, all or none (an OPML file's folders, one digest each): one transaction, and
 * the 100-digest rule counts them together. Answers their ids in the order given.
 */
export async function createDigests(deps: DigestsDeps, userId: string, bodies: DigestCreate[]) {
  const now = deps.clock.now();
  const created = await deps.db.transaction(async (tx) => {
    const owner = await lockOwnerWithRoom(tx, userId, bodies.length);
    const made: { digestId: string; toNotify: string[] }[] = [];
    for (const body of bodies) made.push(await insertNewDigest(tx, deps, owner, userId, body, now));
    return made;
  });
  await deps.notify(created.flatMap((digest) => digest.toNotify));
  return created.map((digest) => digest.digestId);
}

const SCHEDULE_FIELDS = ['active', 'scheduleType', 'time', 'weekDay', 'monthDay'] as const;

/**
 * The window a resume with `catchUp` covers (issue 17 "While you were away"): from the pause to now. Refused
 * (422, nothing changed) unless the digest is paused, was paused for longer than its period, and has a source
 * that can catch up.
 */
function catchUpWindow(
  row: { active: boolean; pausedAt: Date | null; scheduleType: string },
  sources: readonly Source[],
  now: Date,
) {
  if (row.active) throw digestsErrors.catchUpRefused(CATCH_UP_MESSAGES.notPaused);
  // No recorded pause (a row written around the migration by other means): how long is unknown.
  if (!row.pausedAt || !pausedLongerThanPeriod(row.scheduleType as ScheduleType, row.pausedAt, now))
    throw digestsErrors.catchUpRefused(CATCH_UP_MESSAGES.notLongEnough);
  if (!sources.some((source) => catchesUp(source.type)))
    throw digestsErrors.catchUpRefused(CATCH_UP_MESSAGES.noSources);
  return { since: row.pausedAt, until: now };
}

/**
 * `PATCH /digests/{id}`: any field; `{ active }` pauses or resumes, `subscribers` sets the list. A pause
 * records when (`paused_at`); `{ active: true, catchUp: true }` resumes with one catch-up issue.
 */
export async function updateDigest(deps: DigestsDeps, userId: string, digestId: string, patch: DigestPatch) {
  const now = deps.clock.now();
  const toNotify = await deps.db.transaction(async (tx) => {
    const row = await repository.findOwnedDigest(tx, userId, digestId, true);
    if (!row) throw digestsErrors.digestNotFound();
    const { subscribers, name, catchUp, ...fields } = patch;
    const window = catchUp ? catchUpWindow(row, fields.sources ?? row.sources, now) : undefined;
    const changes: repository.DigestChanges = { ...fields, updatedAt: now };
    const owner = await repository.findOwner(tx, userId);
    if (name !== undefined) changes.name = name || defaultDigestName(owner?.fullName);
    if (SCHEDULE_FIELDS.some((field) => patch[field] !== undefined)) {
      // A new schedule, a pause or a resume: the next issue is the first slot of the new schedule after now.
      changes.nextRunAt = nextRunFor({ ...row, ...fields }, owner?.timezone ?? null, now);
    }
    // Pausing a paused digest again keeps the first time: a catch-up covers the whole time it was paused.
    if (fields.active === false && row.active) changes.pausedAt = now;
    if (fields.active === true) changes.pausedAt = null;
    await repository.updateDigest(tx, userId, digestId, changes);
    // A source the digest no longer has has no health (issue 17): its card must not count it failing.
    if (fields.sources !== undefined) await pruneHealth(tx, digestId, fields.sources);
    if (window) await deps.queueCatchUp(tx, digestId, window);
    return subscribers === undefined
      ? []
      : applySubscriberList(tx, {
          userId,
          digestId,
          emails: subscribers,
          now,
          recipientsPerDay: deps.recipientsPerDay,
        });
  });
  await deps.notify(toNotify);
  return getDigest(deps, userId, digestId);
}

export async function deleteDigest(deps: Pick<DigestsDeps, 'db'>, userId: string, digestId: string) {
  if (!(await repository.deleteDigest(deps.db, userId, digestId))) throw digestsErrors.digestNotFound();
}

/** The name of a copy: "{name} (copy)", shortened so it fits. */
export function copyName(name: string) {
  const suffix = ' (copy)';
  return `${name.slice(0, DIGEST_NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
}

/**
 * `POST /digests/duplicate/{id}`: a new digest "{name} (copy)" with the same schedule and sources,
 * paused and without subscribers, so nobody gets a second copy of each issue until the owner edits
 * it and turns it on. Counts towards the 100-digest limit.
 */
export async function duplicateDigest(deps: DigestsDeps, userId: string, digestId: string) {
  const now = deps.clock.now();
  const copyId = await deps.db.transaction(async (tx) => {
    const original = await repository.findOwnedDigest(tx, userId, digestId);
    if (!original) throw digestsErrors.digestNotFound();
    await lockOwnerWithRoom(tx, userId);
    return repository.insertDigest(tx, {
      userId,
      name: copyName(original.name),
      active: false,
      scheduleType: original.scheduleType,
      time: original.time,
      weekDay: original.weekDay,
      monthDay: original.monthDay,
      issueRetentionMonths: original.issueRetentionMonths,
      sendOnlyWhenNew: original.sendOnlyWhenNew,
      minSourcesToSend: original.minSourcesToSend,
      sources: original.sources,
      pausedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  });
  return getDigest(deps, userId, copyId);
}
