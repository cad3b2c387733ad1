import { Link, Outlet } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { LogOutIcon } from '#web/components/ui/icons';
import { Logo } from '#web/components/ui/Logo';
import { useLogout } from '#web/features/auth';
import { paths } from '#web/lib/paths';
import styles from './WelcomeLayout.module.css';

/** docs/product.md §2 /createDigest: the welcome layout (onboarding, then the invitation to build a digest). */
export function WelcomeLayout() {
  const { logOut, pending } = useLogout();
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <div className={styles.bar}>
          <Link className={styles.home} to={paths.digests}>
            <Logo />
          </Link>
          <Button variant="ghost" small onClick={() => void logOut()} loading={pending}>
            <LogOutIcon className={styles.icon} />
            Log out
          </Button>
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
