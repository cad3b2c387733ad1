import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import * as z from 'zod/mini';

type FormValues = Record<string, string | boolean>;
type KeysOf<Values, Kind> = { [K in keyof Values]: Values[K] extends Kind ? K : never }[keyof Values] &
  string;
export type FieldErrors<Values> = Partial<Record<keyof Values, string>>;

/** The schema's first message for each field of `values`, as the form shows them; none when valid. */
function fieldErrors<Values extends FormValues>(schema: z.core.$ZodType, values: Values) {
  const result = z.safeParse(schema, values);
  const errors: FieldErrors<Values> = {};
  if (result.success) return { errors, data: result.data };
  for (const issue of result.error.issues) {
    const name = issue.path[0];
    if (typeof name === 'string' && name in values && errors[name] === undefined) {
      errors[name as keyof Values] = issue.message;
    }
  }
  return { errors };
}

/**
 * The state of a small form checked by a shared contract schema: nothing is checked before the first
 * submit; a submit with a wrong field shows each field's message, focuses the first such field and calls
 * nothing; after that first submit a field's message follows its value as it is edited. The signed-out
 * forms use it instead of react-hook-form, which would weigh on every first load
 * (docs/decisions/0005-signed-out-pages-zod-mini-own-forms.md).
 */
export function useSchemaForm<Schema extends z.core.$ZodType, Values extends FormValues>(
  schema: Schema,
  initialValues: Values,
) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  // What the inputs hold now, for a change that comes before React renders the previous one.
  const latest = useRef(values);
  const submitted = useRef(false);

  const change = (name: keyof Values & string, value: string | boolean) => {
    const next = { ...latest.current, [name]: value };
    latest.current = next;
    setValues(next);
    if (submitted.current) {
      const message = fieldErrors(schema, next).errors[name];
      setErrors((current) => ({ ...current, [name]: message }));
    }
  };

  return {
    values,
    errors,
    /** The props of a text input (TextField): its name, value, change handler and message. */
    text: (name: KeysOf<Values, string>) => ({
      name,
      value: values[name] as string,
      onChange: (event: ChangeEvent<HTMLInputElement>) => change(name, event.target.value),
      error: errors[name],
    }),
    /** The props of a checkbox (Checkbox): its name, state, change handler and message. */
    checkbox: (name: KeysOf<Values, boolean>) => ({
      name,
      checked: values[name] as boolean,
      onChange: (event: ChangeEvent<HTMLInputElement>) => change(name, event.target.checked),
      error: errors[name],
    }),
    /** The form's submit handler: `onValid` gets the schema's output when every field passes. */
    handleSubmit: (onValid: (data: z.output<Schema>) => void) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      submitted.current = true;
      const result = fieldErrors(schema, latest.current);
      setErrors(result.errors);
      if ('data' in result) {
        onValid(result.data as z.output<Schema>);
        return;
      }
      const first = Object.keys(latest.current).find((name) => result.errors[name] !== undefined);
      const control = first ? event.currentTarget.elements.namedItem(first) : null;
      if (control instanceof HTMLElement) control.focus();
    },
  };
}
