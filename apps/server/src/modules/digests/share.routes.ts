import { withoutRecipientFooter } from '@digest/email';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import { digestsErrors } from './digests.errors';
import { findBuildHtml } from './digests.repository';
import { isUuid } from './ids';

/**
 * Headers of an issue's public HTML: no scripts at all, images from anywhere, inline styles (e-mail HTML
 * is styled inline); framable only by our own app (the sandboxed iframe of the digest pages).
 */
export const SHARE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cache-control': 'public, max-age=60',
};

export const SHARE_RATE_LIMIT = { max: 300, timeWindow: '1 minute' };

/** An issue number in a public page's address. */
export const BUILD_NUMBER = /^\d{1,9}$/;

/**
 * The stored HTML of an issue, latest when no number is given. Public (docs/product.md §2: all digests are public);
 * a paused digest's issues stay readable, pausing only stops new issues. Unknown ids answer 404.
 */
export async function getShareHtml(db: Database, digestId: string, buildNumber?: string) {
  if (!isUuid(digestId) || (buildNumber !== undefined && !BUILD_NUMBER.test(buildNumber))) {
    throw digestsErrors.buildNotFound();
  }
  const html = await findBuildHtml(db, digestId, buildNumber === undefined ? undefined : Number(buildNumber));
  if (html === undefined) throw digestsErrors.buildNotFound();
  // The stored issue keeps a place for each recipient's footer; the public page has no recipient.
  return withoutRecipientFooter({ html, text: '' }).html;
}

export function shareRoutes(deps: { db: Database }): FastifyPluginAsyncZod {
  return async (app) => {
    const params = z.object({ digestId: z.string().max(100), buildNumber: z.string().max(20).optional() });
    const schema = {
      tags: ['share'],
      summary: "An issue's HTML for the public page (text/html, no login; scripts forbidden by CSP)",
      params,
    };

    for (const url of ['/digests/share/:digestId', '/digests/share/:digestId/:buildNumber']) {
      app.get(url, { config: { rateLimit: SHARE_RATE_LIMIT }, schema }, async (request, reply) => {
        const html = await getShareHtml(deps.db, request.params.digestId, request.params.buildNumber);
        return reply.headers(SHARE_HEADERS).send(html);
      });
    }
  };
}
