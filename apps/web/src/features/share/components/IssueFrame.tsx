import { useState } from 'react';
import { Spinner } from '#web/components/ui/Spinner';
import styles from './IssueFrame.module.css';

/**
 * One issue of a digest in a sandboxed frame: `sandbox={sandbox}` gives it a unique origin and no scripts,
 * forms, pop-ups or top navigation, so nothing in a digest can touch the app. `src` is the issue's API
 * address (a public page's, or the owner's signed link), served with its own scriptless CSP.
 * A received newsletter is shown the same way, with `sandbox` adding only the pop-ups its links need
 * (they open in a new tab, outside the sandbox; its CSP allows the same and no more).
 */
export function IssueFrame({
  src,
  title,
  variant = 'embedded',
  sandbox = '',
  loadingLabel = 'Loading the digest…',
}: {
  src: string;
  title: string;
  variant?: 'embedded' | 'page';
  sandbox?: 'allow-popups allow-popups-to-escape-sandbox' | '';
  loadingLabel?: string;
}) {
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loading = loadedSrc !== src;
  return (
    <div className={`${styles.wrapper} ${styles[variant]}`} aria-busy={loading || undefined}>
      {loading ? (
        <div className={styles.spinner}>
          <Spinner label={loadingLabel} />
        </div>
      ) : null}
      <iframe
        key={src}
        className={styles.frame}
        src={src}
        title={title}
        sandbox={sandbox}
        referrerPolicy="no-referrer"
        onLoad={() => setLoadedSrc(src)}
      />
    </div>
  );
}
