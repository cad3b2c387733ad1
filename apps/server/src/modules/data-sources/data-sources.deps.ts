import type { SourceHealthDeps } from '#server/modules/source-health/source-health.usecases';
import type { Authenticate } from '#server/platform/http/auth';
import type { SourceContext, SourcesDeps } from '#server/sources/connector';
import type { AccountsConfigured } from './catalogue';

/** What every data-source route is given: data-sources.routes.ts composes them, each kind's file takes it. */
export interface DataSourceRoutesDeps {
  sources: SourcesDeps;
  authenticate: Authenticate;
  /** The signed-in user's zone and locale (previews of dated sources are computed in them). */
  contextOf(userId: string): Promise<SourceContext>;
  /** Connected-account providers this server has OAuth credentials for (config.oauth). */
  accountsConfigured: AccountsConfigured;
  /** Where a preview of one of a digest's sources records how it read (issue 17 "Source health"). */
  health: SourceHealthDeps;
}
