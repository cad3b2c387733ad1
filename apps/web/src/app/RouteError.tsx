import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '#web/components/ui/Button';
import styles from './RouteError.module.css';

/** Shown instead of a blank page when rendering a route throws. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <section className={styles.root} aria-labelledby="route-error-title">
      <h1 id="route-error-title" className={styles.title}>
        Something went wrong
      </h1>
      <p className={styles.text}>The page could not be shown. Reloading usually helps.</p>
      {detail ? <p className={styles.detail}>{detail}</p> : null}
      <Button type="button" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </section>
  );
}
