import type { ComponentPropsWithRef } from 'react';
import { Field } from './Field';
import styles from './TextField.module.css';

interface TextAreaProps extends Omit<ComponentPropsWithRef<'textarea'>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: string;
}

/** A labelled multi-line text box, styled like TextField. */
export function TextArea({ label, error, hint, className, rows = 4, ...props }: TextAreaProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <textarea {...props} {...control} rows={rows} className={`${styles.input} ${styles.textarea}`} />
      )}
    </Field>
  );
}
