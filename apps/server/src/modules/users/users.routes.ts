import {
  changePasswordSchema,
  deleteAccountSchema,
  messageResponseSchema,
  PHOTO_MAX_BYTES,
  type ProfilePatch,
  profilePatchSchema,
  userResponseSchema,
} from '@digest/contracts';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { type Limit, limitByKey } from '#server/platform/http/rate-limit';
import { photoErrors, usersErrors } from './users.errors';
import { presentUser, type UserRow } from './users.presenter';
import * as users from './users.usecases';

export const USERS_RATE_LIMITS = {
  /** Guessing the current password with a stolen access token, per account. */
  passwordPerUser: { max: 10, timeWindow: '15 minutes' },
  passwordPerIp: { max: 20, timeWindow: '15 minutes' },
  /** Decoding images costs CPU. */
  photoPerUser: { max: 30, timeWindow: '15 minutes' },
  /** Each change holds the old name for 30 days: bounds how many names one account can hold back. */
  usernamePerUser: { max: 10, timeWindow: '1 day' },
};

/** Headers of a served photo: cached forever (its id changes with every upload), never sniffed or run. */
export const PHOTO_HEADERS = {
  'content-type': 'image/png',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
};

export interface UsersRoutesDeps extends users.UsersDeps {
  authenticate: Authenticate;
  mailDomain: string;
}

const security = [{ bearerAuth: [] }];

/** The multipart errors of @fastify/multipart, by code, as answers that say what to send instead. */
function uploadError(error: unknown) {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return photoErrors.tooLarge();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return photoErrors.missing();
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return photoErrors.extraParts();
    default:
      return error;
  }
}

/**
 * The bytes of the one file in the multipart field `image` (at most 5 MB, counted while streaming).
 * Anything else in the body (another field, a second file) is refused rather than ignored.
 */
async function readPhotoUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw photoErrors.missing();
  let upload: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'image' || upload) {
        if (part.type === 'file') part.file.resume();
        throw upload || part.type !== 'file'
          ? photoErrors.extraParts()
          : photoErrors.wrongField(part.fieldname);
      }
      upload = await part.toBuffer();
    }
  } catch (error) {
    throw uploadError(error);
  }
  if (!upload) throw photoErrors.missing();
  return upload;
}

export function usersRoutes(deps: UsersRoutesDeps): FastifyPluginAsyncZod {
  const present = (row: UserRow) => ({ user: presentUser(row, { mailDomain: deps.mailDomain }) });

  return async (app) => {
    // Only this plugin parses multipart bodies, with limits that fit one photo.
    await app.register(multipart, {
      limits: {
        fileSize: PHOTO_MAX_BYTES,
        files: 1,
        fields: 0,
        parts: 1,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });

    // Per account, after `authenticate` (the route's `config.rateLimit` is per client address).
    const perUser = (name: string, limit: Limit) =>
      limitByKey(app, name, limit, (request) => authOf(request).userId);

    app.get(
      '/users/me',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['users'],
          summary: 'The signed-in user',
          security,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => present(await users.getMe(deps, authOf(request).userId)),
    );

    const usernameChanges = perUser('username', USERS_RATE_LIMITS.usernamePerUser);
    // Counts only the requests that change the username: a bio or time-zone edit stays unlimited.
    const limitUsernameChanges = async (request: FastifyRequest, reply: FastifyReply) => {
      if ((request.body as ProfilePatch).username !== undefined) await usernameChanges(request, reply);
    };

    app.patch(
      '/users/me',
      {
        preHandler: [deps.authenticate, limitUsernameChanges],
        schema: {
          tags: ['users'],
          summary:
            'Change profile fields (send only the ones that changed); a username given up stays reserved for its owner for 30 days',
          security,
          body: profilePatchSchema,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => present(await users.updateProfile(deps, authOf(request).userId, request.body)),
    );

    app.patch(
      '/users/me/password',
      {
        config: { rateLimit: USERS_RATE_LIMITS.passwordPerIp },
        preHandler: [deps.authenticate, perUser('password', USERS_RATE_LIMITS.passwordPerUser)],
        schema: {
          tags: ['users'],
          summary: 'Change the password (e-mail accounts); every other session ends',
          security,
          body: changePasswordSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await users.changePassword(deps, authOf(request), request.body);
        return { message: 'Your password has been changed.' };
      },
    );

    app.patch(
      '/users/me/photo',
      {
        preHandler: [deps.authenticate, perUser('photo', USERS_RATE_LIMITS.photoPerUser)],
        schema: {
          tags: ['users'],
          summary:
            'Upload a photo: multipart field "image", JPEG, PNG, GIF or SVG, at most 5 MB, at least 100×100 px; stored as a square PNG',
          security,
          consumes: ['multipart/form-data'],
          response: { 200: userResponseSchema },
        },
      },
      async (request) => {
        const { userId } = authOf(request);
        const upload = await readPhotoUpload(request);
        return present(await users.setPhoto(deps, userId, upload));
      },
    );

    app.delete(
      '/users/me/photo',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['users'],
          summary: 'Remove the photo',
          security,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => present(await users.removePhoto(deps, authOf(request).userId)),
    );

    app.delete(
      '/users/me',
      {
        config: { rateLimit: USERS_RATE_LIMITS.passwordPerIp },
        preHandler: [deps.authenticate, perUser('delete-account', USERS_RATE_LIMITS.passwordPerUser)],
        schema: {
          tags: ['users'],
          summary:
            'Delete the account and everything that belongs to it: needs the current password, or for a social account a sign-in in the last 10 minutes',
          security,
          body: deleteAccountSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await users.deleteAccount(deps, authOf(request), request.body);
        return { message: 'Your account has been deleted.' };
      },
    );

    // Public: an <img> cannot send a bearer token. The id is random and changes with every upload.
    app.get(
      '/photos/:photoId',
      {
        // A malformed id is simply a photo that does not exist.
        attachValidation: true,
        schema: {
          tags: ['users'],
          summary: 'A user photo (square PNG), cacheable forever',
          params: z.object({ photoId: z.uuid() }),
        },
      },
      async (request, reply) => {
        if (request.validationError) throw usersErrors.photoNotFound();
        const png = await users.getPhoto(deps, request.params.photoId);
        return reply.headers(PHOTO_HEADERS).send(png);
      },
    );
  };
}
