import { loadConfig } from '#server/app/config';

/**
 * The provider settings the server reads from `env` (the fake providers' variables, or none): tests below
 * app/ get them here instead of importing the configuration themselves.
 */
export const providerConfigOf = (env: Record<string, string>) => loadConfig(env).providers;
