/** One Stripe account's figures for the period (amounts in minor units of `currency`). */
export interface StripeAccountFigures {
  tokenId: string;
  username: string;
  profilePicture: string;
  currency: string;
  /** Sum of succeeded charges minus refunds, or null when not asked for. */
  revenue: number | null;
  payments: number | null;
  customers: number | null;
  /** Set when this account could not be read (the others still show). */
  message: string;
}

export interface StripeContent {
  /** The period the figures cover, ISO 8601. */
  periodStart: string;
  periodEnd: string;
  accounts: StripeAccountFigures[];
}
