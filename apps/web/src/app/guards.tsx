import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { useLogout } from '#web/features/auth';
import { errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import { signedInRedirect } from '#web/lib/redirects';
import { markAuthenticated, useAuthStore } from '#web/lib/session/session';
import { useMe } from '#web/lib/session/use-me';
import styles from './guards.module.css';
import { SignedOutLayout } from './layouts/SignedOutLayout';

/**
 * The root of every route: waits for the session to be restored on load, loads the user behind the access
 * token, and shows a spinner while the auth state disagrees with the token's presence or is loading (docs/product.md §2 "Cross-route behaviour").
 */
export function SessionRoot() {
  const hasToken = useAuthStore((state) => state.token !== null);
  const isAuth = useAuthStore((state) => state.isAuth);
  const restoring = useAuthStore((state) => state.restoring);
  const me = useMe();
  const userLoaded = me.data !== undefined;
  // Ends the session on the server too: the refresh cookie would otherwise bring it back on the next load.
  const { logOut, pending: loggingOut } = useLogout();

  useEffect(() => {
    if (hasToken && userLoaded) markAuthenticated();
  }, [hasToken, userLoaded]);

  // Just loaded: whether the refresh cookie holds a session is not known yet.
  if (restoring) return <PageSpinner label="Loading your account…" />;
  if (hasToken && !userLoaded && me.isError) {
    return (
      <section className={styles.failure} aria-labelledby="session-error-title">
        <h1 id="session-error-title" className={styles.title}>
          Your account could not be loaded
        </h1>
        <p className={styles.text}>{errorMessage(me.error)}</p>
        <div className={styles.actions}>
          <Button onClick={() => void me.refetch()} loading={me.isFetching}>
            Try again
          </Button>
          <Button variant="secondary" onClick={() => void logOut()} loading={loggingOut}>
            Log out
          </Button>
        </div>
      </section>
    );
  }
  if (hasToken ? !(isAuth && userLoaded) : isAuth) return <PageSpinner label="Loading your account…" />;
  return <Outlet />;
}

/** Signed-out pages; a signed-in visitor is sent on (docs/product.md §2). */
export function SignedOutOnly() {
  const hasToken = useAuthStore((state) => state.token !== null);
  const signUpMode = useAuthStore((state) => state.signUpMode);
  const location = useLocation();
  if (hasToken) return <Navigate to={signedInRedirect(location, signUpMode)} replace />;
  return <SignedOutLayout />;
}

/** /recover-message is shown only while a forgot-password e-mail is held (docs/product.md §2). */
export function RequireForgetPasswordEmail() {
  const email = useAuthStore((state) => state.forgetPasswordEmail);
  if (!email) return <Navigate to={paths.login} replace />;
  return <Outlet />;
}

/** Any other path: the profile area when signed in, /login otherwise (docs/product.md §2). */
export function FallbackRedirect() {
  const hasToken = useAuthStore((state) => state.token !== null);
  return <Navigate to={hasToken ? paths.profileView : paths.login} replace />;
}
