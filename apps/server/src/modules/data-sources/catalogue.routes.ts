import { dataSourcesResponseSchema } from '@digest/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '#server/platform/http/auth';
import type { ProviderConfig } from '#server/sources/provider-config';
import { type AccountsConfigured, sourceCatalogue } from './catalogue';

export function catalogueRoutes(deps: {
  providers: ProviderConfig;
  accountsConfigured: AccountsConfigured;
  authenticate: Authenticate;
}): FastifyPluginAsyncZod {
  // The configuration does not change while the server runs.
  const dataSources = sourceCatalogue(deps.providers, deps.accountsConfigured);
  return async (app) => {
    app.get(
      '/data-sources',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'The source catalogue: every kind, and whether this server can serve it',
          description:
            'A kind whose credentials this server lacks has `configured: false` and a `reason`; YouTube works without a key but its channel search does not (`searchConfigured`).',
          security: [{ bearerAuth: [] }],
          response: { 200: dataSourcesResponseSchema },
        },
      },
      async () => ({ dataSources }),
    );
  };
}
