import {
  digestCreateSchema,
  digestListResponseSchema,
  digestPatchSchema,
  digestResponseSchema,
  draftCreateSchema,
  draftListResponseSchema,
  draftPatchSchema,
  draftResponseSchema,
  messageResponseSchema,
  visibilityPutSchema,
  visibilityResponseSchema,
} from '@digest/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SUBSCRIBERS_RATE_LIMITS } from '#server/modules/subscribers/subscribers.routes';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { limitByKey } from '#server/platform/http/rate-limit';
import { digestsErrors } from './digests.errors';
import * as digests from './digests.usecases';
import * as drafts from './drafts.usecases';
import { idParams, isUuid } from './ids';

export interface DigestsRoutesDeps extends digests.DigestsDeps {
  authenticate: Authenticate;
}

const security = [{ bearerAuth: [] }];

const digestIdOf = (id: string) => {
  if (!isUuid(id)) throw digestsErrors.digestNotFound();
  return id;
};
const draftIdOf = (id: string) => {
  if (!isUuid(id)) throw digestsErrors.draftNotFound();
  return id;
};

/**
 * Digests and drafts of the signed-in user (docs/product.md §7). Every query names the owner, so another user's
 * id answers 404 and changes nothing. Static paths (`/digests/drafts`, `/digests/duplicate/…`) take
 * precedence over `/digests/:id` in Fastify's router whatever the registration order.
 */
export function digestsRoutes(deps: DigestsRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const userOf = (request: Parameters<typeof authOf>[0]) => authOf(request).userId;
    // A create or change that sets subscribers can mail up to 100 people: limited per account like
    // `PUT /digests/{id}/subscribers`.
    const subscribersLimit = limitByKey(
      app,
      'digest-subscribers',
      SUBSCRIBERS_RATE_LIMITS.setPerUser,
      userOf,
    );
    const limitSubscriberChanges = async (request: FastifyRequest, reply: FastifyReply) => {
      if ((request.body as { subscribers?: unknown[] } | undefined)?.subscribers?.length) {
        await subscribersLimit(request, reply);
      }
    };
    const tags = ['digests'];

    app.post(
      '/digests',
      {
        preHandler: [deps.authenticate, limitSubscriberChanges],
        schema: {
          tags,
          summary: 'Create a digest (3–20 sources; at most 100 digests per user)',
          security,
          body: digestCreateSchema,
          response: { 201: digestResponseSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ digest: await digests.createDigest(deps, userOf(request), request.body) }),
    );

    app.get(
      '/digests',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary:
            "The user's digests, newest first, as their cards show them: source kinds and a subscriber count (GET /digests/{id} has the sources' settings, the subscribers and the issues)",
          security,
          response: { 200: digestListResponseSchema },
        },
      },
      async (request) => ({ digests: await digests.listDigests(deps, userOf(request)) }),
    );

    app.get(
      '/digests/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'One digest with its issues',
          security,
          params: idParams,
          response: { 200: digestResponseSchema },
        },
      },
      async (request) => ({
        digest: await digests.getDigest(deps, userOf(request), digestIdOf(request.params.id)),
      }),
    );

    app.patch(
      '/digests/:id',
      {
        preHandler: [deps.authenticate, limitSubscriberChanges],
        schema: {
          tags,
          summary: 'Change a digest: any field; { active: false } pauses, { active: true } resumes',
          security,
          params: idParams,
          body: digestPatchSchema,
          response: { 200: digestResponseSchema },
        },
      },
      async (request) => ({
        digest: await digests.updateDigest(
          deps,
          userOf(request),
          digestIdOf(request.params.id),
          request.body,
        ),
      }),
    );

    app.put(
      '/digests/:id/visibility',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary:
            "Turn the digest's public link on (a new random share token) or off (the token is forgotten)",
          security,
          params: idParams,
          body: visibilityPutSchema,
          response: { 200: visibilityResponseSchema },
        },
      },
      async (request) =>
        digests.setVisibility(deps, userOf(request), digestIdOf(request.params.id), request.body.visibility),
    );

    app.delete(
      '/digests/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Delete a digest with its subscribers and issues',
          security,
          params: idParams,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await digests.deleteDigest(deps, userOf(request), digestIdOf(request.params.id));
        return { message: 'Your Digest has been deleted.' };
      },
    );

    app.post(
      '/digests/duplicate/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary:
            'Duplicate a digest: a paused copy "{name} (copy)" with the same schedule and sources, no subscribers',
          security,
          params: idParams,
          response: { 201: digestResponseSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send({
          digest: await digests.duplicateDigest(deps, userOf(request), digestIdOf(request.params.id)),
        }),
    );

    const draftTags = ['drafts'];

    app.post(
      '/digests/drafts',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: draftTags,
          summary: 'Save a draft (0–20 sources); answers { digest } with its digestId',
          security,
          body: draftCreateSchema,
          response: { 201: draftResponseSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ digest: await drafts.createDraft(deps, userOf(request), request.body) }),
    );

    app.get(
      '/digests/drafts',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: draftTags,
          summary: "The user's drafts, most recently changed first",
          security,
          response: { 200: draftListResponseSchema },
        },
      },
      async (request) => ({ digests: await drafts.listDrafts(deps, userOf(request)) }),
    );

    app.patch(
      '/digests/drafts/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: draftTags,
          summary: 'Change a draft (name and/or sources)',
          security,
          params: idParams,
          body: draftPatchSchema,
          response: { 200: draftResponseSchema },
        },
      },
      async (request) => ({
        digest: await drafts.updateDraft(deps, userOf(request), draftIdOf(request.params.id), request.body),
      }),
    );

    app.delete(
      '/digests/drafts/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: draftTags,
          summary: 'Delete a draft',
          security,
          params: idParams,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await drafts.deleteDraft(deps, userOf(request), draftIdOf(request.params.id));
        return { message: 'Your draft has been deleted.' };
      },
    );
  };
}
