import { TEMPLATE_CATEGORIES, type TemplateCategory, templateListResponseSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import type { Authenticate } from '#server/platform/http/auth';
import { TEMPLATES } from './templates.data';

const isCategory = (value: string): value is TemplateCategory =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(value);

/** Templates of one category (docs/product.md §7 `GET /digests/web/{category}`). */
export function listTemplates(category: string) {
  if (!isCategory(category)) throw digestsErrors.templatesNotFound(category);
  return TEMPLATES[category];
}

export function templatesRoutes(deps: { authenticate: Authenticate }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/digests/web/:category',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['templates'],
          summary: 'Digest templates of a category (starting points for the builder)',
          description: `Categories: ${TEMPLATE_CATEGORIES.join(', ')}. Another category answers 404.`,
          security: [{ bearerAuth: [] }],
          params: z.object({ category: z.string().max(100) }),
          response: { 200: templateListResponseSchema },
        },
      },
      async (request) => ({ templates: listTemplates(request.params.category) }),
    );
  };
}
