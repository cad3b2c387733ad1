import { SOURCE_SCHEMAS, type SourceInputOf, type SourceType } from '@digest/contracts';
import type * as z from 'zod/mini';

/**
 * The settings a new source of `type` starts with: every field's default in the kind's shared schema
 * (docs/product.md §9), so the form shows them (a select would otherwise show its first option, not the default).
 * The name stays empty: its field shows the kind's own name as the placeholder.
 */
export function settingDefaults<T extends SourceType>(type: T): Partial<SourceInputOf<T>> {
  const shape = SOURCE_SCHEMAS[type]._zod.def.in.shape as Record<string, z.ZodMiniType>;
  const defaults: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (field === 'name') continue;
    const parsed = schema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) defaults[field] = parsed.data;
  }
  return defaults as Partial<SourceInputOf<T>>;
}
