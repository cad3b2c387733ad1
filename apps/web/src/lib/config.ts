/** Base path of the HTTP API (docs/design.md §5); the dev server proxies it to the API server. */
export const API_BASE = '/api';

/** Every API call gives up after this long (docs/product.md §7, §9). */
export const API_TIMEOUT_MS = 10_000;
