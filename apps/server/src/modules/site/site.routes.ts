import { SITE_PAGES, siteInfoSchema, sitePageSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Site } from './site';

const tags = ['site'];

/** Public: the sign-up page, the signed-out header and every mail's reader need them without a session. */
export function siteRoutes(site: Site): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/site',
      {
        schema: {
          tags,
          summary: 'The support address and where the changelog, Terms of Service and Privacy Policy are',
          description:
            'From the server configuration (SUPPORT_EMAIL, CHANGELOG_URL, TERMS_URL/FILE, PRIVACY_URL/FILE). A link starting with / is a page of the app.',
          response: { 200: siteInfoSchema },
        },
      },
      async () => site.info,
    );
    app.get(
      '/site/pages/:page',
      {
        schema: {
          tags,
          summary: 'A page of the app rendered from Markdown or HTML: terms, privacy or changelog',
          description:
            'The HTML is reduced to the server’s sanitiser allow-list. 404 when the operator published the page elsewhere (the link of GET /site points there) or the server has none.',
          params: z.object({ page: z.enum(SITE_PAGES) }),
          response: { 200: sitePageSchema },
        },
      },
      async (request) => site.page(request.params.page),
    );
  };
}
