import { Readable } from 'node:stream';
import {
  OPML_MAX_BYTES,
  opmlFolderDigestsResponseSchema,
  opmlFolderDigestsSchema,
  opmlImportResponseSchema,
} from '@digest/contracts';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import { idParams, isUuid } from '#server/modules/digests/ids';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { handleError } from '#server/platform/http/errors';
import { writeAccountArchive } from './archive.usecases';
import * as opml from './opml.usecases';
import { portabilityErrors } from './portability.errors';

export interface PortabilityRoutesDeps extends opml.OpmlDeps {
  authenticate: Authenticate;
}

const security = [{ bearerAuth: [] }];
const tags = ['portability'];

export const PORTABILITY_RATE_LIMITS = {
  /** Parsing a file costs a little CPU; a person imports a few, not hundreds. */
  importPerIp: { max: 30, timeWindow: '1 minute' },
  /** The archive reads every issue of the account. */
  archivePerIp: { max: 10, timeWindow: '1 minute' },
};

/** `Content-Disposition: attachment` with an ASCII fallback name and the real one (RFC 6266, RFC 8187). */
function attachment(name: string, extension: string): string {
  const base = name.replace(/[\p{Cc}/\\]+/gu, ' ').trim() || 'digest';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_');
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeURIComponent(`${base}.${extension}`)}`;
}

/**
 * OPML import and export, and the account's archive (issue 16). The upload is the file's bytes as the
 * body (any content type), read only after the session is checked and refused past 1 MB before parsing.
 */
export function portabilityRoutes(deps: PortabilityRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const userOf = (request: Parameters<typeof authOf>[0]) => authOf(request).userId;

    await app.register(async (plugin) => {
      const scope = plugin.withTypeProvider<ZodTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: OPML_MAX_BYTES },
        (_request, body, done) => done(null, body),
      );
      scope.setErrorHandler((error: FastifyError, request, reply) =>
        handleError(
          error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? portabilityErrors.tooLarge() : error,
          request,
          reply,
        ),
      );
      scope.post(
        '/opml/import',
        {
          // Before the body is read: without a session, nothing is uploaded or parsed.
          onRequest: deps.authenticate,
          config: { rateLimit: PORTABILITY_RATE_LIMITS.importPerIp },
          schema: {
            tags,
            summary: 'Read an OPML file (the body, at most 1 MB): its folders and feeds; nothing is stored',
            security,
            response: { 200: opmlImportResponseSchema },
          },
        },
        async (request) => {
          authOf(request);
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          return opml.previewOpml(deps, body);
        },
      );
    });

    app.post(
      '/opml/digests',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Create one digest per OPML folder (3–20 feeds each), all or none',
          security,
          body: opmlFolderDigestsSchema,
          response: { 201: opmlFolderDigestsResponseSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await opml.createFolderDigests(deps, userOf(request), request.body)),
    );

    app.get(
      '/digests/:id/opml',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: "Download a digest's RSS feeds as an OPML 2.0 file",
          security,
          params: idParams,
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        if (!isUuid(request.params.id)) throw digestsErrors.digestNotFound();
        const file = await opml.exportDigestOpml(deps, userOf(request), request.params.id);
        return reply
          .header('content-type', 'text/x-opml; charset=utf-8')
          .header('content-disposition', attachment(file.name, 'opml'))
          .header('cache-control', 'private, no-store')
          .send(file.opml);
      },
    );

    app.get(
      '/account/archive',
      {
        preHandler: deps.authenticate,
        config: { rateLimit: PORTABILITY_RATE_LIMITS.archivePerIp },
        schema: {
          tags,
          summary: 'Download all my data: profile, digests with settings and issues (HTML), drafts, as JSON',
          security,
        },
      },
      async (request, reply) =>
        reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', attachment('digest-archive', 'json'))
          .header('cache-control', 'private, no-store')
          .send(Readable.from(writeAccountArchive(deps, userOf(request)))),
    );
  };
}
