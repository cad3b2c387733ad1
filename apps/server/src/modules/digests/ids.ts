import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID: anything else names no digest, draft or subscriber, so it answers 404 without a query. */
export const isUuid = (value: string) => UUID.test(value);

/** `:id` of a digest or draft. Any text is accepted here: an id that is not a UUID is an unknown one (404). */
export const idParams = z.object({ id: z.string().max(100).describe('Digest or draft id (UUID)') });
