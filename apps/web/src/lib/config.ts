/** The support mailbox behind every 'Contact us' link. */
export const SUPPORT_EMAIL = 'hello@digest.localhost';
export const SUPPORT_MAILTO = `mailto:${SUPPORT_EMAIL}`;

/** Base path of the HTTP API (docs/design.md §5); the dev server proxies it to the API server. */
export const API_BASE = '/api';

/** Every API call gives up after this long (docs/product.md §7, §9). */
export const API_TIMEOUT_MS = 10_000;

/** "Digest Updates" in the profile menu opens the product's external changelog (docs/product.md §2). */
export const CHANGELOG_URL = 'https://github.com/digest-app/digest/releases';
