import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '../modules/auth/authenticate';
import type { SourcesDeps } from './connector';

export interface DataSourceRoutesDeps {
  sources: SourcesDeps;
  authenticate: Authenticate;
}

/**
 * Every `/api/data-sources/...` call of SPEC §7, signed-in only: each kind's folder contributes its
 * routes here. A provider failure answers that call with the SourceError's status and message.
 */
export function dataSourcesRoutes(deps: DataSourceRoutesDeps): FastifyPluginAsyncZod[] {
  void deps;
  return [];
}
