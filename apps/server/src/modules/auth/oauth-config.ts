/**
 * The OAuth clients of social sign-in (modules/auth/social) and of connected accounts (modules/accounts):
 * app/config.ts builds this from the environment.
 */

export interface OAuthCredentials {
  clientId: string;
  clientSecret: string;
}

/** Where a plain OAuth 2.0 provider (no discovery) answers. */
export interface OAuthEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

/** Social sign-in: a provider is offered only when its `credentials` are set. */
export interface OAuthConfig {
  google: { credentials: OAuthCredentials | undefined; issuer: string };
  twitter: { credentials: OAuthCredentials | undefined } & OAuthEndpoints;
  facebook: { credentials: OAuthCredentials | undefined } & OAuthEndpoints;
  /** Stripe Connect (connected accounts only): client id + platform secret key. */
  stripe: { credentials: OAuthCredentials | undefined; connectUrl: string };
}
