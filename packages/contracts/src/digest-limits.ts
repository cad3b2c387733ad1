/**
 * How much a digest and an account may hold (docs/product.md §5, §9). A module of their own, with no schema,
 * so that code needing one figure (the signed-out pages cap a guided sequence at MAX_SOURCES) does not load
 * the digest schemas with it (issue 15).
 */

export const MIN_SOURCES = 3;
export const MAX_SOURCES = 20;
/** Creation is refused when the user already has more than 99 digests (so at most 100). */
export const MAX_DIGESTS = 100;
/** Drafts of one user (not in docs/product.md: a bound on what one account can store). */
export const MAX_DRAFTS = 100;
/** Subscribers of one digest (not in docs/product.md: a bound so one request cannot mail thousands of people). */
export const MAX_SUBSCRIBERS = 100;
export const DIGEST_NAME_MAX_LENGTH = 100;
/** Friend e-mails listed in the share dialog before 'See all subscribers' (docs/product.md §9). */
export const PENDING_EMAILS_SHOWN = 3;
