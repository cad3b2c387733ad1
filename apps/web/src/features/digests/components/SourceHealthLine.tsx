import type { SourceHealth } from '@digest/contracts';
import { Link } from 'react-router';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { paths } from '#web/lib/paths';
import styles from './SourceHealthLine.module.css';

/** Whether a source's health has something to say: it fails, its feed moved, or it was moved. */
export const hasHealthNews = (health: SourceHealth) =>
  health.failing || health.fix !== null || health.note !== null;

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Issue 17: what is wrong with one source and what to do — "Reconnect Google" (to Connected accounts),
 * "Edit the source" (`onEdit`, the builder), or when the provider lets it be read again — with the
 * provider's own words, and the note of a feed that was moved to its new address.
 */
export function SourceHealthLine({
  health,
  onEdit,
  showTitle = true,
}: {
  health: SourceHealth;
  /** Opens the source in the builder; absent where the builder is already open. */
  onEdit?: (() => void) | undefined;
  showTitle?: boolean;
}) {
  const { fix } = health;
  return (
    <div className={health.failing ? `${styles.line} ${styles.failing}` : styles.line}>
      <p className={styles.message}>
        {showTitle ? <strong>{health.title}: </strong> : null}
        {fix?.message ?? health.note}
      </p>
      {health.failing && health.lastError ? (
        <p className={styles.detail}>
          {health.consecutiveFailures > 1 ? `Failed ${health.consecutiveFailures} issues in a row. ` : ''}
          {`${health.lastError.detail.replace(/\.?$/, '.')}`}
          {health.retryAt ? ` It may be read again after ${formatWhen(health.retryAt)}.` : ''}
        </p>
      ) : null}
      {fix && health.note ? <p className={styles.detail}>{health.note}</p> : null}
      {fix?.action === 'reconnect' ? (
        <Link className={buttonClassName({ small: true })} to={paths.accounts}>
          {fix.label}
        </Link>
      ) : null}
      {fix?.action === 'edit' && onEdit ? (
        <Button small variant="secondary" onClick={onEdit}>
          {fix.label}
        </Button>
      ) : null}
    </div>
  );
}
