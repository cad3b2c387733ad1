import { Link } from 'react-router';
import { ChevronRightIcon, InboxIcon } from '#web/components/ui/icons';
import { publicDigestPath } from '#web/features/share';
import styles from './PublicDigestList.module.css';

export interface PublicDigestItem {
  /** The public page's token: never the digest's id. */
  shareToken: string;
  name: string;
  /** null before the first issue. */
  latestBuildNumber: number | null;
}

/** A user's public digests, each linking to its public page (docs/design.md §10: private by default). */
export function PublicDigestList({ digests, emptyText }: { digests: PublicDigestItem[]; emptyText: string }) {
  return (
    <section className={styles.section} aria-labelledby="public-digests-title">
      <h2 id="public-digests-title" className={styles.title}>
        Digests
      </h2>
      {digests.length === 0 ? (
        <p className={styles.empty}>{emptyText}</p>
      ) : (
        <ul className={styles.list}>
          {digests.map((digest) => (
            <li key={digest.shareToken} className={styles.item}>
              <InboxIcon className={styles.icon} />
              <div className={styles.text}>
                <span className={styles.name}>{digest.name}</span>
                {digest.latestBuildNumber === null ? (
                  <span className={styles.status}>No issue sent yet</span>
                ) : (
                  <Link
                    className={styles.link}
                    to={publicDigestPath(digest.shareToken, digest.latestBuildNumber)}
                    aria-label={`Read the latest issue of ${digest.name}`}
                  >
                    Read the latest issue
                    <ChevronRightIcon className={styles.chevron} />
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
