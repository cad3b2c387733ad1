import { useParams } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { useSubscription, useUnsubscribe } from '../api/subscriptions-api';
import { LinkFailure } from '../components/LinkFailure';
import styles from './UnsubscribePage.module.css';

export const INVALID_LINK_TEXT =
  'This unsubscribe link is not valid. It may have been mistyped or cut short.';

/**
 * `/unsubscribe/{token}` (no login), opened from the link in a Digest e-mail. Opening the page changes
 * nothing — mail scanners follow links — and only the button unsubscribes.
 */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  const subscription = useSubscription(token);
  const unsubscribe = useUnsubscribe(token);

  let body: React.ReactNode;
  if (subscription.isPending) {
    body = <PageSpinner label="Loading your subscription…" />;
  } else if (subscription.isError) {
    body = (
      <LinkFailure
        title="Unsubscribe"
        invalidText={INVALID_LINK_TEXT}
        error={subscription.error}
        retry={() => void subscription.refetch()}
      />
    );
  } else {
    const { digestName, email, status } = subscription.data;
    const done = status === 'unsubscribed';
    body = done ? (
      <>
        <h1 className={styles.title}>You are unsubscribed</h1>
        <p className={styles.text} role="status">
          <strong>{email}</strong> will no longer receive <strong>{digestName}</strong>.
        </p>
      </>
    ) : (
      <>
        <h1 className={styles.title}>Unsubscribe from {digestName}?</h1>
        <p className={styles.text}>
          <strong>{email}</strong> will no longer receive <strong>{digestName}</strong> by e-mail.
        </p>
        {unsubscribe.isError ? <Alert>{errorMessage(unsubscribe.error)}</Alert> : null}
        <Button onClick={() => unsubscribe.mutate()} loading={unsubscribe.isPending}>
          Unsubscribe
        </Button>
      </>
    );
  }

  return (
    <div className={styles.page}>
      <title>Unsubscribe · Digest</title>
      <section className={styles.card}>{body}</section>
    </div>
  );
}
