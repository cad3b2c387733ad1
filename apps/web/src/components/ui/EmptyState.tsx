import type { ReactNode } from 'react';
import styles from './EmptyState.module.css';

/** A centred empty or coming-soon panel: icon, title, text, optional action. */
export function EmptyState({
  icon,
  title,
  children,
  action,
  headingLevel = 2,
}: {
  icon?: ReactNode;
  title: string;
  /** 1 when the panel is all the page has (a standalone 'not found'). */
  headingLevel?: 1 | 2;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={styles.root}>
      {icon ? <span className={styles.icon}>{icon}</span> : null}
      {headingLevel === 1 ? (
        <h1 className={styles.title}>{title}</h1>
      ) : (
        <h2 className={styles.title}>{title}</h2>
      )}
      {children ? <div className={styles.text}>{children}</div> : null}
      {action ? <div className={styles.action}>{action}</div> : null}
    </div>
  );
}
