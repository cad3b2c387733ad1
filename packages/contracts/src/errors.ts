import * as z from 'zod/mini';

/** Body of every API error response (docs/design.md §5): `{ message, code }`. */
export const apiErrorBodySchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
});
export type ApiErrorBody = z.output<typeof apiErrorBodySchema>;

/**
 * `POST /digests/rebuild/{id}` answered 422 with one of these when no issue was sent, its message saying why in
 * words: every source failed or had nothing new, or the conditions held the issue back. Not a failure of the
 * app: the web app tells it as information.
 */
export const NOTHING_SENT_CODES = {
  nothingToSend: 'NOTHING_TO_SEND',
  conditionsNotMet: 'CONDITIONS_NOT_MET',
} as const;
