import { Link } from 'react-router';
import styles from './BackLink.module.css';
import { ChevronLeftIcon } from './icons';

/** The way back to the list a page was opened from, above its heading (a digest, a received message). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <nav className={styles.breadcrumb} aria-label="Breadcrumb">
      <Link to={to}>
        <ChevronLeftIcon className={styles.icon} />
        {label}
      </Link>
    </nav>
  );
}
