import type { Source } from '@digest/contracts';
import { type BlockContext, SourceBlock } from '@digest/email/blocks';
import { useBlockPreview } from '../api/preview-api';
import styles from './BlockPreview.module.css';

/**
 * A source's live content drawn by the e-mail's own block component, so the builder shows what the issue
 * will show; a placeholder while it loads.
 */
export function BlockPreview({ source, context }: { source: Source; context: BlockContext }) {
  const preview = useBlockPreview(source);
  if (preview.loading || !preview.block) {
    return (
      <div className={styles.loading} role="status" aria-label="Loading the source's content">
        <span className={styles.line} />
        <span className={styles.line} />
        <span className={`${styles.line} ${styles.short}`} />
      </div>
    );
  }
  return (
    <div className={styles.email}>
      <SourceBlock block={preview.block} context={context} />
    </div>
  );
}
