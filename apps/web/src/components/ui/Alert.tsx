import type { ReactNode } from 'react';
import styles from './Alert.module.css';

/** An inline message box; `error` ones are announced at once (role="alert"). */
export function Alert({ tone = 'error', children }: { tone?: 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
