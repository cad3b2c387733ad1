import { withoutRecipientFooter } from '@digest/email';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import { digestsErrors } from './digests.errors';
import { findBuildHtml, findPublicBuildHtml } from './digests.repository';
import { isUuid } from './ids';
import type { IssueLinks } from './issue-links';

/**
 * Headers of an issue's HTML: no scripts at all, images over https (or inline data) only, inline styles
 * (e-mail HTML is styled inline); framable only by our own app (the sandboxed iframe of the digest pages).
 */
export const SHARE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cache-control': 'public, max-age=60',
};

export const SHARE_RATE_LIMIT = { max: 300, timeWindow: '1 minute' };

/** An issue number in a public page's address. */
export const BUILD_NUMBER = /^\d{1,9}$/;

/** A share token (`randomToken()`: 256 random bits, base64url). Anything else, a digest id too, is unknown. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The public copy of an issue, latest when no number is given (docs/design.md §10): only while the owner
 * has the public link on, by its current token, and only issues that have a public copy. A private
 * digest, a token turned off, an unknown one and a digest id all answer the same 404; a paused digest's
 * issues stay readable, pausing only stops new issues.
 */
export async function getShareHtml(db: Database, shareToken: string, buildNumber?: string) {
  if (!SHARE_TOKEN.test(shareToken) || (buildNumber !== undefined && !BUILD_NUMBER.test(buildNumber))) {
    throw digestsErrors.buildNotFound();
  }
  const html = await findPublicBuildHtml(
    db,
    shareToken,
    buildNumber === undefined ? undefined : Number(buildNumber),
  );
  if (html === undefined) throw digestsErrors.buildNotFound();
  // The stored issue keeps a place for each recipient's footer; the public page has no recipient.
  return withoutRecipientFooter({ html, text: '' }).html;
}

export function shareRoutes(deps: { db: Database; issueLinks: IssueLinks }): FastifyPluginAsyncZod {
  return async (app) => {
    const params = z.object({ shareToken: z.string().max(100), buildNumber: z.string().max(20).optional() });
    const schema = {
      tags: ['share'],
      summary: "An issue's public HTML by the share token (text/html, no login; scripts forbidden by CSP)",
      params,
    };

    for (const url of ['/digests/share/:shareToken', '/digests/share/:shareToken/:buildNumber']) {
      app.get(url, { config: { rateLimit: SHARE_RATE_LIMIT }, schema }, async (request, reply) => {
        const html = await getShareHtml(deps.db, request.params.shareToken, request.params.buildNumber);
        return reply.headers(SHARE_HEADERS).send(html);
      });
    }

    app.get(
      '/digests/:id/issues/:buildNumber/html',
      {
        config: { rateLimit: SHARE_RATE_LIMIT },
        schema: {
          tags: ['share'],
          summary:
            "The owner's full HTML of an issue, by the signed link of the digest's `builds[].htmlLink`",
          params: z.object({ id: z.string().max(100), buildNumber: z.string().max(20) }),
          querystring: z.object({
            expires: z.string().max(20).default(''),
            signature: z.string().max(100).default(''),
          }),
        },
      },
      async (request, reply) => {
        const { id: digestId, buildNumber } = request.params;
        const valid =
          isUuid(digestId) &&
          BUILD_NUMBER.test(buildNumber) &&
          deps.issueLinks.isValid(digestId, Number(buildNumber), request.query);
        const html = valid ? await findBuildHtml(deps.db, digestId, Number(buildNumber)) : undefined;
        if (html === undefined) throw digestsErrors.buildNotFound();
        return reply
          .headers({ ...SHARE_HEADERS, 'cache-control': 'private, max-age=60' })
          .send(withoutRecipientFooter({ html, text: '' }).html);
      },
    );
  };
}
