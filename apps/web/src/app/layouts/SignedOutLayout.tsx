import { Link, Outlet } from 'react-router';
import { Logo } from '#web/components/ui/Logo';
import { paths } from '#web/lib/paths';
import { useSiteLinks } from '#web/lib/site';
import styles from './SignedOutLayout.module.css';

/** Layout for visitors without a session: logo and the help link only (docs/product.md §2 "Header and menus"). */
export function SignedOutLayout() {
  const { supportMailto } = useSiteLinks();
  return (
    <div className={styles.shell}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <div className={styles.bar}>
          <Link className={styles.home} to={paths.login}>
            <Logo />
          </Link>
          <a className={styles.help} href={supportMailto}>
            Need Help? Contact us
          </a>
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
