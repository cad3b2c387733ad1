import styles from './PageSpinner.module.css';
import { Spinner } from './Spinner';

/** A centred spinner for a page (or the whole app) that is still loading. */
export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={styles.root}>
      <Spinner label={label} className={styles.spinner} />
    </div>
  );
}
