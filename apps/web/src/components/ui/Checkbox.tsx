import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';
import styles from './Checkbox.module.css';

interface CheckboxProps extends Omit<ComponentPropsWithRef<'input'>, 'id' | 'type'> {
  label: ReactNode;
  error?: string | undefined;
}

/** A native checkbox with its label and an inline error (role="alert"). */
export function Checkbox({ label, error, className, ...inputProps }: CheckboxProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      <div className={styles.row}>
        <input
          {...inputProps}
          id={id}
          type="checkbox"
          className={styles.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <label className={styles.label} htmlFor={id}>
          {label}
        </label>
      </div>
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
