import { Link, Outlet } from 'react-router';
import { Logo } from '#web/components/ui/Logo';
import { paths } from '#web/lib/paths';
import { useAuthStore } from '#web/lib/session/session';
import styles from './PublicLayout.module.css';

/**
 * Pages anyone may open, signed in or not (docs/product.md §2 "Public routes", the public profile): the logo and
 * one link, to the user's digests or to sign up.
 */
export function PublicLayout() {
  const signedIn = useAuthStore((state) => state.token !== null);
  return (
    <div className={styles.shell}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <div className={styles.bar}>
          <Link className={styles.home} to={signedIn ? paths.digests : paths.login}>
            <Logo />
          </Link>
          {signedIn ? (
            <Link className={styles.link} to={paths.digests}>
              Go to your Digests
            </Link>
          ) : (
            <Link className={styles.link} to={paths.signup}>
              Create your own Digest
            </Link>
          )}
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
