import { z } from 'zod';

/** A query-string flag: `true`/`1` or `false`/`0` (z.coerce.boolean would read 'false' as true). */
export const queryFlag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .default('false')
    .transform((value) => value === 'true' || value === '1');
