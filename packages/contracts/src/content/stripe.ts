/** Revenue in one currency, in its minor units (cents). */
export interface StripeRevenue {
  currency: string;
  amount: number;
}

/** One Stripe account's figures for the period (amounts in minor units of `currency`). */
export interface StripeAccountFigures {
  tokenId: string;
  username: string;
  profilePicture: string;
  /** The currency that brought the most revenue in the period ('' when there was none). */
  currency: string;
  /** Succeeded charges minus their refunds in `currency`, or null when not asked for. */
  revenue: number | null;
  /** Revenue per currency, largest first, for accounts that sell in several (empty when not asked for). */
  revenueByCurrency: StripeRevenue[];
  /** Succeeded charges in the period, or null when not asked for. */
  payments: number | null;
  /** Customers created in the period, or null when not asked for. */
  customers: number | null;
  /** Set when this account could not be read (the others still show). */
  message: string;
}

export interface StripeContent {
  /** The period the figures cover, ISO 8601: the 24 hours before the fetch. */
  periodStart: string;
  periodEnd: string;
  accounts: StripeAccountFigures[];
}
