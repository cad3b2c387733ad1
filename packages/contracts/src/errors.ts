import { z } from 'zod';

/** Body of every API error response (docs/design.md §5): `{ message, code }`. */
export const apiErrorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
});
export type ApiErrorBody = z.output<typeof apiErrorBodySchema>;
