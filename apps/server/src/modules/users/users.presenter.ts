import type { User } from '@digest/contracts';
import type { users } from '#server/db/schema';

export type UserRow = typeof users.$inferSelect;

/** The user as the API shows it to its owner (docs/product.md §3); never the password hash. */
export function presentUser(row: UserRow, options: { mailDomain: string }): User {
  const photo = row.photoId ? `/api/photos/${row.photoId}` : null;
  return {
    userId: row.userId,
    email: row.email,
    fullName: row.fullName,
    username: row.username,
    bio: row.bio,
    profileImg: photo,
    photo,
    method: row.method as User['method'],
    confirmed: row.confirmed,
    pendingEmail: row.pendingEmail,
    timezone:
      row.timezone && row.locale !== null && row.timezoneOffset !== null
        ? { timezone: row.timezone, locale: row.locale, offset: row.timezoneOffset }
        : null,
    newsletterEmail: row.username ? `${row.username.toLowerCase()}@${options.mailDomain}` : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
