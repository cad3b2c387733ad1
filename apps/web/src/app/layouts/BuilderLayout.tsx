import { Link, Outlet } from 'react-router';
import { buttonClassName } from '../../components/ui/Button';
import { paths } from '../paths';
import styles from './BuilderLayout.module.css';
import { Logo } from './Logo';

/** SPEC §2 /digestCreator has its own layout; the progress indicator and Complete come with the builder. */
export function BuilderLayout() {
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <div className={styles.bar}>
          <Link className={styles.home} to={paths.digests}>
            <Logo />
          </Link>
          <Link className={buttonClassName({ variant: 'secondary', small: true })} to={paths.digests}>
            Back to Digests
          </Link>
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
