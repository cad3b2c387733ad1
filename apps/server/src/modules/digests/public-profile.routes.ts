import { type PublicProfile, publicProfileResponseSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import { AppError } from '#server/platform/http/errors';
import { findPublicProfile } from './digests.repository';

export const PROFILE_RATE_LIMIT = { max: 120, timeWindow: '1 minute' };

const profileNotFound = () => new AppError(404, 'PROFILE_NOT_FOUND', 'No such user.');

/**
 * The public profile (docs/product.md §1): photo, name, bio and the names of the user's public, active
 * digests with their share token and latest public issue number, for links to the public pages. Never the
 * e-mail, a digest id, a private or paused digest, schedules, sources or subscribers. Undefined when no
 * user has that username.
 */
export async function findPublicProfileOf(
  db: Database,
  username: string,
): Promise<PublicProfile | undefined> {
  if (!/^[A-Za-z0-9]{1,30}$/.test(username)) return undefined;
  const found = await findPublicProfile(db, username);
  if (!found) return undefined;
  return {
    user: {
      fullName: found.user.fullName,
      username: found.user.username,
      bio: found.user.bio,
      profileImg: found.user.photoId ? `/api/photos/${found.user.photoId}` : null,
    },
    // A public digest always has a token (a check constraint); the filter only tells the type so.
    digests: found.digests.flatMap(({ shareToken, ...digest }) =>
      shareToken
        ? [{ shareToken, name: digest.name, latestBuildNumber: numberOrNull(digest.latestBuildNumber) }]
        : [],
    ),
  };
}

const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

export async function getPublicProfile(db: Database, username: string): Promise<PublicProfile> {
  const profile = await findPublicProfileOf(db, username);
  if (!profile) throw profileNotFound();
  return profile;
}

export function publicProfileRoutes(deps: { db: Database }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users/by-username/:username',
      {
        config: { rateLimit: PROFILE_RATE_LIMIT },
        schema: {
          tags: ['users'],
          summary: "A user's public profile: photo, name, bio and digests (no login)",
          params: z.object({ username: z.string().max(100) }),
          response: { 200: publicProfileResponseSchema },
        },
      },
      async (request) => getPublicProfile(deps.db, request.params.username),
    );
  };
}
