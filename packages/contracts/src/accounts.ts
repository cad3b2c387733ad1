import * as z from 'zod/mini';
import { ACCOUNT_PROVIDERS } from './data-sources';

/** Accounts a user can connect as sources (docs/product.md §3 "Connected account token": tokenType). */
export type AccountProvider = (typeof ACCOUNT_PROVIDERS)[number];

/** How each provider is named in paths (`/api/auth/{google,twitter,stripe}/tokens`). */
export const CONNECT_PATH_NAMES = ['google', 'twitter', 'stripe'] as const;
export type ConnectPathName = (typeof CONNECT_PATH_NAMES)[number];

export const connectPathNameOf = (provider: AccountProvider) => provider.toLowerCase() as ConnectPathName;
export const accountProviderOf = (name: ConnectPathName) => name.toUpperCase() as AccountProvider;

/** How the provider is named to people. */
export const ACCOUNT_PROVIDER_LABELS: Record<AccountProvider, string> = {
  GOOGLE: 'Google',
  TWITTER: 'X (Twitter)',
  STRIPE: 'Stripe',
};

/**
 * A path of the web app to come back to after connecting (the builder, the accounts page): a same-site
 * path only, never `//host` or a URL, so the callback cannot be made to send anyone elsewhere.
 */
export const returnPathSchema = z
  .string()
  .check(
    z.maxLength(300),
    z.regex(/^\/(?![/\\])[^\\\s]*$/, 'must be a path of this site, such as /accounts'),
  );

/** `POST /api/auth/{provider}/tokens`: start connecting an account. */
export const connectStartBodySchema = z.strictObject({ returnTo: z.optional(returnPathSchema) });

/** Where the browser goes next: a single-use start address of this server, bound to this browser. */
export const connectStartResponseSchema = z.object({ url: z.string() });

/** One connected account as the web app sees it: never its tokens. */
export const connectedAccountSchema = z.object({
  tokenId: z.string(),
  tokenType: z.enum(ACCOUNT_PROVIDERS),
  email: z.nullable(z.string()),
  username: z.nullable(z.string()),
  profilePicture: z.nullable(z.string()),
});
export type ConnectedAccount = z.output<typeof connectedAccountSchema>;

/** `GET /api/data-sources/social-accounts/list` */
export const connectedAccountsResponseSchema = z.object({ accounts: z.array(connectedAccountSchema) });

/** `GET /api/data-sources/social-accounts/providers`: which accounts this server can connect. */
export const connectableProvidersResponseSchema = z.object({
  providers: z.array(z.object({ provider: z.enum(ACCOUNT_PROVIDERS), configured: z.boolean() })),
});
export type ConnectableProviders = z.output<typeof connectableProvidersResponseSchema>;
