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
  /**
   * The digest whose issue is being built; absent in the builder's preview. Newsletters read it: an issue
   * carries only what this digest has not carried yet.
   */
  digestId?: string;
  /**
   * A catch-up issue's window (issue 17 "While you were away"): the time the digest was paused. The kinds
   * that can read a past window (`CATCH_UP_KINDS`) read only what was published or received in it.
   */
  window?: { since: Date; until: Date };
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
  /** The scopes the provider granted when the account was connected (or last renewed); null if it did not say. */
  scopes: string[] | null;
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

/** One newsletter of the user's mailbox, as stored (its HTML already through the one sanitiser). */
export interface StoredNewsletter {
  messageId: string;
  subject: string;
  senderName: string;
  fromAddress: string;
  receivedAt: Date;
  excerpt: string;
  /** Null for a text-only message, and when the body was not asked for. */
  html: string | null;
  /** '' when the body was not asked for. */
  text: string;
}

export interface NewsletterQuery {
  userId: string;
  /** 'all': the senders whose state is `included`; else these senders, unless muted or blocked. */
  senders: 'all' | readonly string[];
  limit: number;
  /**
   * An issue of this digest: only newsletters it has not carried, received since its previous issue.
   * Absent (the builder's preview): the latest.
   */
  digestId?: string | undefined;
  /**
   * A catch-up issue: newsletters received in this window (instead of since the digest's previous issue),
   * still only those the digest has not carried.
   */
  receivedIn?: { since: Date; until: Date } | undefined;
  /** Whether to read the HTML and text too (the whole-issue layout). */
  withBody: boolean;
}

/** Access to the user's newsletter mailbox (modules/newsletters implements it). */
export interface NewsletterItems {
  /** Messages of kind `newsletter` of `userId` only, newest first. */
  latest(query: NewsletterQuery): Promise<StoredNewsletter[]>;
}

/** What every connector is given (composition root builds it once). */
export interface SourcesDeps {
  http: ProviderHttp;
  providers: ProviderConfig;
  accounts: AccountTokens;
  newsletters: NewsletterItems;
  clock: Clock;
  /** APP_URL: blocks link pages of the app (a newsletter's). */
  appUrl: string;
}

/** One source kind: turns saved settings into the content its block shows. */
export interface Connector<T extends SourceType> {
  type: T;
  fetchContent(source: SourceOf<T>, context: SourceContext): Promise<SourceContentOf<T>>;
}
