import { DIGEST_MESSAGES, invalidFriendEmailMessage, subscriberEmailSchema } from '@digest/contracts';

/** docs/product.md §4/§8: Share with nothing pending. */
export const EMPTY_PENDING_MESSAGE = DIGEST_MESSAGES.emptyPending;

export type AddResult = { ok: true; pending: string[] } | { ok: false; error: string };

/**
 * Adds `entered` to the FRONT of the pending list (docs/product.md §5) when it is a valid address (normalised as
 * the server does) that is neither pending nor an active subscriber already. A bad address reads
 * '{email} should be a valid email!' with the text as entered.
 */
export function addPendingEmail(
  entered: string,
  pending: readonly string[],
  existing: readonly string[],
): AddResult {
  const parsed = subscriberEmailSchema.safeParse(entered);
  if (!parsed.success) return { ok: false, error: invalidFriendEmailMessage(entered.trim()) };
  const email = parsed.data;
  if (pending.includes(email)) return { ok: false, error: `${email} is already on the list.` };
  if (existing.some((item) => item.toLowerCase() === email)) {
    return { ok: false, error: `${email} is already a subscriber.` };
  }
  return { ok: true, pending: [email, ...pending] };
}
