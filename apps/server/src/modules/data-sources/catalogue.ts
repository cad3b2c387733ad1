import {
  type AccountProviderName,
  type DataSource,
  SOURCE_CATALOGUE_PLACES,
  SOURCE_DATA_PATHS,
  SOURCE_LABELS,
  SOURCE_TYPES,
  type SourceType,
  sourceKinds,
} from '@digest/contracts';
import type { ProviderConfig } from '#server/sources/provider-config';

/** Which connected-account providers this server has OAuth credentials for (config.oauth). */
export type AccountsConfigured = Record<AccountProviderName, boolean>;

const ACCOUNT_NAMES: Record<AccountProviderName, string> = {
  GOOGLE: 'Google Calendar',
  TWITTER: 'X/Twitter',
  STRIPE: 'Stripe',
};

const notConfigured = (what: string) => `${what} is not configured on this server`;

/** What this server lacks for one kind, if anything. */
function availability(
  type: SourceType,
  providers: ProviderConfig,
  accounts: AccountsConfigured,
): Pick<DataSource, 'configured' | 'reason' | 'searchConfigured'> {
  const account = sourceKinds[type].accountProvider;
  if (account) {
    return accounts[account]
      ? { configured: true }
      : { configured: false, reason: notConfigured(ACCOUNT_NAMES[account]) };
  }
  // Product Hunt needs no token either: without one its public feed is read.
  if (type === 'YOUTUBE') {
    // Channel feeds need no key: only search does.
    return providers.credentials.youtubeApiKey
      ? { configured: true, searchConfigured: true }
      : { configured: true, searchConfigured: false, reason: notConfigured('YouTube search') };
  }
  return { configured: true };
}

/**
 * Why this server cannot serve each kind it cannot serve (a missing key or OAuth client); kinds it can
 * serve are absent. Templates use it to leave out what would only fail.
 */
export function unservableKinds(
  providers: ProviderConfig,
  accounts: AccountsConfigured,
): Partial<Record<SourceType, string>> {
  const reasons: Partial<Record<SourceType, string>> = {};
  for (const type of SOURCE_TYPES) {
    const { configured, reason } = availability(type, providers, accounts);
    if (!configured) reasons[type] = reason ?? notConfigured(SOURCE_LABELS[type]);
  }
  return reasons;
}

/** docs/product.md §7 catalogue: every kind, in SOURCE_TYPES order, with what this server can serve. */
export function sourceCatalogue(providers: ProviderConfig, accounts: AccountsConfigured): DataSource[] {
  return SOURCE_TYPES.map((type) => ({
    type,
    name: SOURCE_LABELS[type],
    path: SOURCE_DATA_PATHS[type],
    ...SOURCE_CATALOGUE_PLACES[type],
    accountProvider: sourceKinds[type].accountProvider,
    ...availability(type, providers, accounts),
  }));
}
