import type { ComponentPropsWithRef } from 'react';
import styles from './Button.module.css';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

interface ButtonStyleOptions {
  variant?: ButtonVariant;
  fullWidth?: boolean;
  /** A shorter control for toolbars and headers. */
  small?: boolean;
  className?: string | undefined;
}

/** Button classes, also for links that look like buttons. */
export function buttonClassName({
  variant = 'primary',
  fullWidth = false,
  small = false,
  className,
}: ButtonStyleOptions = {}) {
  return [
    styles.button,
    styles[variant],
    fullWidth ? styles.fullWidth : '',
    small ? styles.small : '',
    className ?? '',
  ]
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
  small,
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
      className={buttonClassName({ variant, fullWidth, small, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
