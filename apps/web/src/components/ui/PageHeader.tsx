import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronLeftIcon } from './icons';
import styles from './PageHeader.module.css';

interface PageHeaderProps {
  title: ReactNode;
  /** Text under the title. */
  description?: ReactNode;
  /** A back chevron shown on phones only (docs/product.md §2: Edit profile → /digests, profile view → /menu). */
  mobileBackTo?: string;
  backLabel?: string;
  actions?: ReactNode;
}

/** The h1 of a signed-in page, with an optional phone-only back chevron and actions. */
export function PageHeader({
  title,
  description,
  mobileBackTo,
  backLabel = 'Back',
  actions,
}: PageHeaderProps) {
  return (
    <header className={styles.header}>
      <div className={styles.row}>
        {mobileBackTo ? (
          <Link className={styles.back} to={mobileBackTo} aria-label={backLabel}>
            <ChevronLeftIcon />
          </Link>
        ) : null}
        <h1 className={styles.title}>{title}</h1>
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
      {description ? <p className={styles.description}>{description}</p> : null}
    </header>
  );
}
