import { Button } from '#web/components/ui/Button';
import { ApiError, errorMessage } from '#web/lib/api-client';
import styles from '../pages/UnsubscribePage.module.css';

/**
 * What a page opened from a mail's link shows when the link's subscription cannot be read: a link that is
 * not valid (mistyped, cut short, its Digest deleted) says so; any other failure can be tried again.
 */
export function LinkFailure({
  title,
  invalidText,
  error,
  retry,
}: {
  title: string;
  invalidText: string;
  error: unknown;
  retry: () => void;
}) {
  const invalid = error instanceof ApiError && (error.status === 404 || error.status === 400);
  return (
    <>
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.text}>{invalid ? invalidText : errorMessage(error)}</p>
      {invalid ? null : <Button onClick={retry}>Try again</Button>}
    </>
  );
}
