import type { ComponentPropsWithRef } from 'react';
import styles from './Button.module.css';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary';

interface ButtonStyleOptions {
  variant?: ButtonVariant;
  fullWidth?: boolean;
  className?: string | undefined;
}

/** Button classes, also for links that look like buttons. */
export function buttonClassName({
  variant = 'primary',
  fullWidth = false,
  className,
}: ButtonStyleOptions = {}) {
  return [styles.button, styles[variant], fullWidth ? styles.fullWidth : '', className ?? '']
    .filter(Boolean)
    .join(' ');
}

interface ButtonProps extends ComponentPropsWithRef<'button'>, Omit<ButtonStyleOptions, 'className'> {
  /** Shows a spinner, disables the button and marks it busy. */
  loading?: boolean;
}

export function Button({
  variant,
  fullWidth,
  loading = false,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={buttonClassName({ variant, fullWidth, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
