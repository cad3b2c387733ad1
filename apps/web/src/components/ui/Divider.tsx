import styles from './Divider.module.css';

/** A horizontal rule with a short centred label, e.g. "or". */
export function Divider({ label }: { label: string }) {
  return (
    <div className={styles.divider}>
      <span className={styles.label}>{label}</span>
    </div>
  );
}
