import { type ProviderAnswers, providerDown } from '#server/sources/account-refusal';

const REFUSED_TOKEN = "Product Hunt refused the server's token";
const DOWN = providerDown('Product Hunt');

/**
 * Product Hunt's API answers (read with the server's developer token) and what the user reads for them.
 * The token is the server's, so a refusal is the operator's to fix, not the user's; 429 is left to the
 * generic reading, with the wait its `X-Rate-Limit-Reset` counts.
 */
export const PRODUCT_HUNT_API_ANSWERS: ProviderAnswers = {
  reasonsOf: () => [],
  rows: [
    { status: 401, kind: 'unauthorized', message: REFUSED_TOKEN },
    { status: 403, kind: 'unauthorized', message: REFUSED_TOKEN },
    DOWN,
  ],
};

/** Its public feed, read with no token: only Product Hunt's own failure has words of its own. */
export const PRODUCT_HUNT_FEED_ANSWERS: ProviderAnswers = { reasonsOf: () => [], rows: [DOWN] };
