import {
  MIN_SOURCES,
  type SourceType,
  TEMPLATE_CATEGORIES,
  type Template,
  type TemplateCategory,
  templateListResponseSchema,
} from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import type { Authenticate } from '#server/platform/http/auth';
import { TEMPLATES } from './templates.data';

const isCategory = (value: string): value is TemplateCategory =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(value);

/** Why this server cannot serve a kind, for each kind it cannot serve (the catalogue's reasons). */
export type UnservableKinds = Partial<Record<SourceType, string>>;

/**
 * A template as this server can serve it: a source whose kind it cannot serve (one whose provider needs
 * credentials this server lacks) is left out with a note, since its preview could only fail and keep Done disabled. A
 * template left with fewer than MIN_SOURCES would not make a digest as it is, so it is not offered.
 */
function servable(template: Template, unservable: UnservableKinds): Template | null {
  const reasons = new Set<string>();
  const sources = template.sources.filter((source) => {
    const reason = unservable[source.type];
    if (reason) reasons.add(reason);
    return !reason;
  });
  if (reasons.size === 0) return template;
  if (sources.length < MIN_SOURCES) return null;
  return { ...template, sources, note: `Left out: ${[...reasons].join('; ')}.` };
}

/** Templates of one category (docs/product.md §7 `GET /digests/web/{category}`), as this server can serve them. */
export function listTemplates(category: string, unservable: UnservableKinds): Template[] {
  if (!isCategory(category)) throw digestsErrors.templatesNotFound(category);
  return TEMPLATES[category].flatMap((template) => servable(template, unservable) ?? []);
}

export function templatesRoutes(deps: {
  authenticate: Authenticate;
  unservable: UnservableKinds;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/digests/web/:category',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['templates'],
          summary: 'Digest templates of a category (starting points for the builder)',
          description: `Categories: ${TEMPLATE_CATEGORIES.join(', ')}. Another category answers 404. A source of a kind this server cannot serve is left out, with a note saying why.`,
          security: [{ bearerAuth: [] }],
          params: z.object({ category: z.string().max(100) }),
          response: { 200: templateListResponseSchema },
        },
      },
      async (request) => ({ templates: listTemplates(request.params.category, deps.unservable) }),
    );
  };
}
