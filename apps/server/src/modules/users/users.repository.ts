import { randomUUID } from 'node:crypto';
import { and, eq, gte, ne, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { releasedUsernames, userPhotos, users } from '#server/db/schema';
import { DEFAULT_TIME_ZONE, normaliseEmail, usernameReservationCutoff } from './users.rules';

/** A user's zone in a query that reads `users`: theirs, or the default. */
export const userTimeZone = sql<string>`coalesce(${users.timezone}, ${DEFAULT_TIME_ZONE})`;

export async function findUserById(db: Database, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.userId, userId));
  return row;
}

export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)));
  return row;
}

export async function insertUser(db: Database, values: typeof users.$inferInsert) {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: normaliseEmail(values.email) })
    .returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

/** Another account (not `exceptUserId`) whose username matches case-insensitively. */
export async function isUsernameTaken(db: Database, username: string, exceptUserId: string) {
  const [row] = await db
    .select({ id: users.userId })
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${username})`, ne(users.userId, exceptUserId)));
  return row !== undefined;
}

/** A name another account (not `exceptUserId`) gave up within the reservation period, in any case. */
export async function isUsernameReservedForAnother(
  db: Database,
  username: string,
  exceptUserId: string,
  now: Date,
) {
  const [row] = await db
    .select({ id: releasedUsernames.userId })
    .from(releasedUsernames)
    .where(
      and(
        eq(releasedUsernames.usernameLower, username.toLowerCase()),
        ne(releasedUsernames.userId, exceptUserId),
        gte(releasedUsernames.releasedAt, usernameReservationCutoff(now)),
      ),
    );
  return row !== undefined;
}

/** Holds a name the user gave up for them; an expired reservation of the name by anyone is replaced. */
export async function reserveReleasedUsername(db: Database, username: string, userId: string, now: Date) {
  const usernameLower = username.toLowerCase();
  await db
    .insert(releasedUsernames)
    .values({ usernameLower, userId, releasedAt: now })
    .onConflictDoUpdate({ target: releasedUsernames.usernameLower, set: { userId, releasedAt: now } });
}

/** The name is held in `users` now: its reservation (the user's own, or expired) has done its work. */
export async function dropUsernameReservation(db: Database, username: string) {
  await db.delete(releasedUsernames).where(eq(releasedUsernames.usernameLower, username.toLowerCase()));
}

/** Another account (not `exceptUserId`) with this e-mail. */
export async function isEmailTaken(db: Database, email: string, exceptUserId: string) {
  const [row] = await db
    .select({ id: users.userId })
    .from(users)
    .where(and(eq(users.email, normaliseEmail(email)), ne(users.userId, exceptUserId)));
  return row !== undefined;
}

export type UserChanges = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'fullName'
    | 'username'
    | 'email'
    | 'confirmed'
    | 'bio'
    | 'timezone'
    | 'locale'
    | 'timezoneOffset'
    | 'passwordHash'
    | 'photoId'
    | 'pendingEmail'
  >
> & { updatedAt: Date };

/** Changes the user's own row; undefined when the account no longer exists. */
export async function updateUser(db: Database, userId: string, changes: UserChanges) {
  const values = changes.email === undefined ? changes : { ...changes, email: normaliseEmail(changes.email) };
  const [row] = await db.update(users).set(values).where(eq(users.userId, userId)).returning();
  return row;
}

/**
 * Stores the user's photo (replacing the one before) under a new random id and points the user at it,
 * in one transaction. Undefined when the account no longer exists.
 */
export async function replaceUserPhoto(db: Database, userId: string, png: Buffer, now: Date) {
  return db.transaction(async (tx) => {
    const photoId = randomUUID();
    const row = await updateUser(tx, userId, { photoId, updatedAt: now });
    if (!row) return undefined;
    await tx
      .insert(userPhotos)
      .values({ photoId, userId, png, createdAt: now })
      .onConflictDoUpdate({ target: userPhotos.userId, set: { photoId, png, createdAt: now } });
    return row;
  });
}

/** Removes the user's photo, if any. Undefined when the account no longer exists. */
export async function deleteUserPhoto(db: Database, userId: string, now: Date) {
  return db.transaction(async (tx) => {
    await tx.delete(userPhotos).where(eq(userPhotos.userId, userId));
    return updateUser(tx, userId, { photoId: null, updatedAt: now });
  });
}

/** The PNG bytes of a photo by its public id. */
export async function findPhotoPng(db: Database, photoId: string) {
  const [row] = await db
    .select({ png: userPhotos.png })
    .from(userPhotos)
    .where(eq(userPhotos.photoId, photoId));
  return row?.png;
}

/** Deletes the account; every row that belongs to it goes with it through ON DELETE CASCADE. */
export async function deleteUser(db: Database, userId: string) {
  const rows = await db.delete(users).where(eq(users.userId, userId)).returning({ id: users.userId });
  return rows.length === 1;
}
