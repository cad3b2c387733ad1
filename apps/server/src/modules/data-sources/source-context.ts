import type { Database } from '#server/db/client';
import { findUserById } from '#server/modules/users/users.repository';
import { DEFAULT_TIME_ZONE } from '#server/modules/users/users.rules';
import type { SourceContext } from '#server/sources/connector';

/**
 * The zone and locale a user's sources are read in: the profile's (docs/product.md §3 timezone), UTC and en-US for a
 * profile that has none yet (the web app saves the browser's zone on first sign-in, docs/product.md §4).
 */
export async function sourceContextOf(db: Database, userId: string): Promise<SourceContext> {
  const user = await findUserById(db, userId);
  return { userId, timezone: user?.timezone ?? DEFAULT_TIME_ZONE, locale: user?.locale ?? 'en-US' };
}
