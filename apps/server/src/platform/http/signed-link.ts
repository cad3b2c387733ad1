import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '#server/platform/clock';

/** The signed query of a link made by `createSignedLinks`. */
export interface SignedLinkQuery {
  expires: string;
  signature: string;
}

export interface SignedLinkTimes {
  /** How long a link works at least, counted from the start of its period. */
  lifetimeMs: number;
  /**
   * Links made within one period are the same (their expiry is rounded down to it), so a page refetching
   * the link does not reload the frame showing it. A link works from `lifetimeMs - periodMs` to `lifetimeMs`.
   */
  periodMs: number;
}

/**
 * Links that open one thing without a bearer token: a sandboxed frame cannot send the owner's token, so
 * the owner's answer carries a link signed with a key derived from APP_SECRET. The signature binds the
 * subject (what the link opens, and for whom) to the expiry; nothing else opens with it.
 */
export function createSignedLinks(key: Uint8Array, clock: Clock, times: SignedLinkTimes) {
  const sign = (subject: string, expires: number) =>
    createHmac('sha256', key).update(`${subject}/${expires}`).digest('base64url');

  return {
    /** `expires=…&signature=…` for `subject`. */
    query(subject: string): string {
      const now = clock.now().getTime();
      const expires = (Math.floor(now / times.periodMs) * times.periodMs + times.lifetimeMs) / 1000;
      return `expires=${expires}&signature=${sign(subject, expires)}`;
    },

    /** Whether the query was made here for this subject and has not expired. */
    isValid(subject: string, query: SignedLinkQuery): boolean {
      if (!/^\d{1,12}$/.test(query.expires)) return false;
      const expires = Number(query.expires);
      if (expires * 1000 <= clock.now().getTime()) return false;
      const expected = Buffer.from(sign(subject, expires));
      const given = Buffer.from(query.signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type SignedLinks = ReturnType<typeof createSignedLinks>;
