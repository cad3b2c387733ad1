import { type ConnectedAccount, SOURCE_SCHEMAS, type StripeSource } from '@digest/contracts';

export type StripeAccount = NonNullable<StripeSource['stripeAccounts']>[number];

/**
 * A Stripe account as it is first included in stripeAccounts: its tokenId, name and picture, with the
 * figures the shared schema starts it with (revenue, payments and customers all on).
 */
export function stripeAccountOf(account: ConnectedAccount): StripeAccount {
  const entry = { tokenId: account.tokenId, username: account.username ?? account.email ?? '' };
  const withPicture = { ...entry, profilePicture: account.profilePicture };
  // A picture the schema refuses (not an http(s) address) is left out rather than losing the account.
  const parsed = SOURCE_SCHEMAS.STRIPE.safeParse({ type: 'STRIPE', stripeAccounts: [withPicture] });
  const source = parsed.success
    ? parsed.data
    : SOURCE_SCHEMAS.STRIPE.parse({ type: 'STRIPE', stripeAccounts: [entry] });
  const [first] = source.stripeAccounts ?? [];
  if (!first) throw new Error('A Stripe account always parses to one entry');
  return first;
}
