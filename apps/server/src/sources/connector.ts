import type { SourceOf, SourceType } from '@digest/contracts';
import type { SourceContentOf } from '@digest/contracts/content';
import type { Clock } from '#server/platform/clock';
import type { ProviderConfig } from './provider-config';
import type { ProviderHttp } from './provider-http';

/** Whose content is fetched, and in which zone "today" is. */
export interface SourceContext {
  userId: string;
  /** The owner's IANA zone. */
  timezone: string;
  /** BCP 47, e.g. 'en-US'. */
  locale: string;
}

export type AccountProvider = 'GOOGLE' | 'TWITTER' | 'STRIPE';

export interface ConnectedAccountSummary {
  tokenId: string;
  tokenType: AccountProvider;
  /** The provider's own id of the account (Google sub, X user id, Stripe account id). */
  providerAccountId: string;
  email: string | null;
  username: string | null;
  profilePicture: string | null;
}

/** Access to the user's connected accounts (modules/accounts implements it). */
export interface AccountTokens {
  /**
   * A usable access token of one of `userId`'s accounts, refreshed first when it has expired. Throws
   * SourceError `not_connected` when the account is not the user's, was disconnected, or the provider
   * refused the refresh.
   */
  accessToken(
    userId: string,
    tokenId: string,
    provider: AccountProvider,
  ): Promise<{ accessToken: string; account: ConnectedAccountSummary }>;
  /** The user's accounts of one provider, oldest first. */
  list(userId: string, provider?: AccountProvider): Promise<ConnectedAccountSummary[]>;
}

/** What every connector is given (composition root builds it once). */
export interface SourcesDeps {
  http: ProviderHttp;
  providers: ProviderConfig;
  accounts: AccountTokens;
  clock: Clock;
}

/** One source kind: turns saved settings into the content its block shows. */
export interface Connector<T extends SourceType> {
  type: T;
  fetchContent(source: SourceOf<T>, context: SourceContext): Promise<SourceContentOf<T>>;
}
