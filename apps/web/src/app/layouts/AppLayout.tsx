import { Link, NavLink, Outlet } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { MenuIcon, PlusIcon } from '#web/components/ui/icons';
import { Logo } from '#web/components/ui/Logo';
import { useOpenBuilder } from '#web/features/builder';
import { useDigestLimitReached } from '#web/features/digests';
import { VerifyAddressBanner } from '#web/features/profile';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import styles from './AppLayout.module.css';
import { ProfileMenu } from './ProfileMenu';

/** Signed-in shell (docs/product.md §2 "Header and menus"). */
export function AppLayout() {
  return (
    <div className={styles.shell}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <AppHeader />
      <VerifyAddressBanner />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

function navClass({ isActive }: { isActive: boolean }) {
  return isActive ? `${styles.navLink} ${styles.active}` : styles.navLink;
}

function AppHeader() {
  const user = useCurrentUser();
  const { createDigest } = useOpenBuilder();
  // docs/product.md §5: no new digest when the user already has more than 99.
  const limitReached = useDigestLimitReached();
  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <Link className={styles.home} to={paths.digests}>
          <Logo />
        </Link>
        <nav className={styles.nav} aria-label="Main">
          <NavLink className={navClass} to={paths.digests}>
            Digests
          </NavLink>
          <NavLink className={navClass} to={paths.newsletters}>
            Newsletters
          </NavLink>
        </nav>
        <div className={styles.actions}>
          <Button
            small
            className={styles.create}
            onClick={createDigest}
            disabled={limitReached}
            title={limitReached ? 'You have reached the limit of digests' : undefined}
          >
            <PlusIcon className={styles.createIcon} />
            <span className={styles.wide}>Create digest</span>
            <span className={styles.narrow}>New digest</span>
          </Button>
          <div className={styles.profile}>
            <ProfileMenu user={user} />
          </div>
          <Link className={styles.menuLink} to={paths.menu} aria-label="Menu">
            <MenuIcon />
          </Link>
        </div>
      </div>
    </header>
  );
}
