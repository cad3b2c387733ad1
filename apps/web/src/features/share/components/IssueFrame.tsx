import { useState } from 'react';
import { Spinner } from '#web/components/ui/Spinner';
import styles from './IssueFrame.module.css';

/**
 * One issue of a digest in a sandboxed frame: `sandbox=""` gives it a unique origin and no scripts,
 * forms, pop-ups or top navigation, so nothing in a digest can touch the app. `src` is the issue's API
 * address (a public page's, or the owner's signed link), served with its own scriptless CSP.
 */
export function IssueFrame({
  src,
  title,
  variant = 'embedded',
}: {
  src: string;
  title: string;
  variant?: 'embedded' | 'page';
}) {
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loading = loadedSrc !== src;
  return (
    <div className={`${styles.wrapper} ${styles[variant]}`} aria-busy={loading || undefined}>
      {loading ? (
        <div className={styles.spinner}>
          <Spinner label="Loading the digest…" />
        </div>
      ) : null}
      <iframe
        key={src}
        className={styles.frame}
        src={src}
        title={title}
        sandbox=""
        referrerPolicy="no-referrer"
        onLoad={() => setLoadedSrc(src)}
      />
    </div>
  );
}
