import type { ComponentPropsWithRef } from 'react';
import { Field } from './Field';
import styles from './TextField.module.css';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps extends Omit<ComponentPropsWithRef<'select'>, 'id'> {
  label: string;
  options: readonly SelectOption[];
  error?: string | undefined;
  hint?: string;
}

/** A labelled native select, styled like TextField (native for keyboard and screen-reader support). */
export function SelectField({ label, options, error, hint, className, ...props }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <select {...props} {...control} className={`${styles.input} ${styles.select}`}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
