import { SOURCE_SCHEMAS, type SourceInputOf, type SourceOf, type SourceType } from '@digest/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';

type Values<T extends SourceType> = Partial<SourceInputOf<T>>;

export interface SourceForm<T extends SourceType> {
  values: Values<T>;
  /** Changes one setting. */
  set<K extends keyof SourceInputOf<T>>(field: K, value: SourceInputOf<T>[K]): void;
  /** Changes several settings at once (a search result picked: its id, name and picture). */
  merge(patch: Values<T>): void;
  /**
   * The first problem of each field, by field name, from the kind's shared schema; a nested setting's
   * (a condition's) also by its dotted path, `conditions.rainAtLeast`.
   */
  errors: Partial<Record<string, string>>;
  /** The valid settings, or null while any field is wrong. */
  source: SourceOf<T> | null;
}

/**
 * A kind's settings form: values in state, checked on every change by the kind's schema from
 * @digest/contracts (the same schema the server checks), valid settings reported for the live preview.
 */
export function useSourceForm<T extends SourceType>(
  type: T,
  start: Values<T>,
  onChange: (source: SourceOf<T> | null) => void,
): SourceForm<T> {
  const [values, setValues] = useState<Values<T>>(() => ({ ...start, type }) as Values<T>);
  const result = useMemo(() => SOURCE_SCHEMAS[type].safeParse({ ...values, type }), [type, values]);
  const errors = useMemo(() => {
    const byField: Partial<Record<string, string>> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '');
        byField[field] ??= issue.message;
        if (issue.path.length > 1) byField[issue.path.join('.')] ??= issue.message;
      }
    }
    return byField;
  }, [result]);
  const source = result.success ? (result.data as SourceOf<T>) : null;
  const report = useRef(onChange);
  report.current = onChange;
  const sourceKey = JSON.stringify(source);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported when the settings change, not the callback
  useEffect(() => {
    report.current(source);
  }, [sourceKey]);
  return {
    values,
    set: (field, value) => setValues((current) => ({ ...current, [field]: value })),
    merge: (patch) => setValues((current) => ({ ...current, ...patch })),
    errors,
    source,
  };
}
