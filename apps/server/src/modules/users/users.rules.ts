/**
 * The zone a user's schedules, dates and sources are read in until their profile has one (the web app saves
 * the browser's zone on first sign-in, docs/product.md §4).
 */
export const DEFAULT_TIME_ZONE = 'UTC';

/** E-mails are compared and stored trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
