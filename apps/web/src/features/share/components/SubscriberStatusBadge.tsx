import { SUBSCRIBER_STATUS_LABELS, type SubscriberStatus } from '@digest/contracts';
import styles from './SubscriberStatusBadge.module.css';

/** A friend's consent as the owner reads it: the label, and what it means as the badge's description. */
export function SubscriberStatusBadge({ status }: { status: SubscriberStatus }) {
  const { label, hint } = SUBSCRIBER_STATUS_LABELS[status];
  return (
    <span className={`${styles.badge} ${styles[status]}`} title={hint}>
      {label}
      <span className={styles.hint}>: {hint}</span>
    </span>
  );
}
