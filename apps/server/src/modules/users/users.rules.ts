import { USERNAME_RESERVATION_DAYS } from '@digest/contracts';

/**
 * The zone a user's schedules, dates and sources are read in until their profile has one (the web app saves
 * the browser's zone on first sign-in, docs/product.md §4).
 */
export const DEFAULT_TIME_ZONE = 'UTC';

/** E-mails are compared and stored trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const USERNAME_RESERVATION_MS = USERNAME_RESERVATION_DAYS * 24 * 60 * 60 * 1000;

/** Names released before this moment are free again. */
export const usernameReservationCutoff = (now: Date) => new Date(now.getTime() - USERNAME_RESERVATION_MS);
