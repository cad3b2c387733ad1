import type { ReactNode } from 'react';
import styles from './AuthCard.module.css';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The card that holds every sign-in / sign-up screen: centred on larger screens, full width on phones. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <section className={styles.page} aria-labelledby="auth-card-title">
      <div className={styles.card}>
        <header className={styles.heading}>
          <h1 id="auth-card-title" className={styles.title}>
            {title}
          </h1>
          {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
        </header>
        {children}
        {footer ? <div className={styles.footer}>{footer}</div> : null}
      </div>
    </section>
  );
}
