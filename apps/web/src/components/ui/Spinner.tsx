import styles from './Spinner.module.css';

interface SpinnerProps {
  /** Announced to screen readers; leave empty when the surrounding control already says it is busy. */
  label?: string;
  className?: string;
}

export function Spinner({ label, className }: SpinnerProps) {
  const classes = className ? `${styles.spinner} ${className}` : styles.spinner;
  if (!label) return <span className={classes} aria-hidden="true" />;
  return (
    <span role="status" className={styles.wrapper}>
      <span className={classes} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
