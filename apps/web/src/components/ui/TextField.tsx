import type { ComponentPropsWithRef } from 'react';
import { Field } from './Field';
import styles from './TextField.module.css';

interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id'> {
  label: string;
  /** Shown under the field and announced; marks the field invalid. */
  error?: string | undefined;
  /** Helper text under the field. */
  hint?: string;
}

/** A labelled text input with an inline error (role="alert") and optional hint. */
export function TextField({ label, error, hint, className, type = 'text', ...inputProps }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <input {...inputProps} {...control} type={type} className={styles.input} />}
    </Field>
  );
}
