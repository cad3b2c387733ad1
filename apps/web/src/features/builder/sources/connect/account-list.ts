import type { AccountProvider, ConnectedAccount } from '@digest/contracts';

/** The user's connected accounts of one provider, in the server's order (oldest first). */
export function accountsOf(
  accounts: readonly ConnectedAccount[],
  provider: AccountProvider,
): ConnectedAccount[] {
  return accounts.filter((account) => account.tokenType === provider);
}

/** An account chosen in a source's settings (a calendar's selectedEvents, Stripe's stripeAccounts). */
interface ChosenAccount {
  tokenId: string;
}

/** docs/product.md §5: an account is added only if its tokenId is not there yet. */
export function includeAccount<E extends ChosenAccount>(chosen: readonly E[], entry: E): E[] {
  return chosen.some((item) => item.tokenId === entry.tokenId) ? [...chosen] : [...chosen, entry];
}

export function excludeAccount<E extends ChosenAccount>(chosen: readonly E[], tokenId: string): E[] {
  return chosen.filter((item) => item.tokenId !== tokenId);
}

/** Turns one of a chosen account's options (events, holidays, revenue …) on or off. */
export function setAccountFlag<E extends ChosenAccount, F extends keyof E>(
  chosen: readonly E[],
  tokenId: string,
  flag: F,
  value: E[F],
): E[] {
  return chosen.map((item) => (item.tokenId === tokenId ? { ...item, [flag]: value } : item));
}
