import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { ClockIcon, LinkIcon, NewspaperIcon, ShareIcon, UsersIcon } from '#web/components/ui/icons';
import {
  type DigestSummary,
  formatCount,
  formatTime12,
  nextIssueText,
  SourceIcons,
  scheduleDay,
  scheduleTypeLabel,
  visibilityLabel,
} from '#web/features/digests';
import { ShareDialog } from '#web/features/share';
import { digestPath } from '#web/lib/paths';
import { ActiveSwitch } from './ActiveSwitch';
import styles from './Cards.module.css';
import { DigestMenu } from './DigestMenu';

export function subscriberCountLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`;
}

/** Issue 17: the card's mark for sources whose last read failed ("1 source failing"). */
export function failingSourcesLabel(count: number): string {
  return `${count} ${count === 1 ? 'source' : 'sources'} failing`;
}

/**
 * docs/product.md §2 digest card: name (opens the digest), schedule type, weekday or month day, time, source icons,
 * subscriber count, Share, the Active/Paused switch and a menu (Duplicate, Delete Digest); plus when the
 * next issue goes out.
 */
export function DigestCard({ digest }: { digest: DigestSummary }) {
  const titleId = useId();
  const [sharing, setSharing] = useState(false);
  const day = scheduleDay(digest);
  return (
    <article className={styles.card} aria-labelledby={titleId}>
      <div className={styles.top}>
        <h2 id={titleId} className={styles.name}>
          <Link className={styles.open} to={digestPath(digest.digestId)}>
            {digest.name}
          </Link>
        </h2>
        <div className={styles.raised}>
          <DigestMenu digestId={digest.digestId} name={digest.name} />
        </div>
      </div>
      <p className={styles.schedule}>
        <ClockIcon className={styles.metaIcon} />
        <span>{scheduleTypeLabel(digest.scheduleType)}</span>
        {day ? (
          <>
            <span aria-hidden="true">·</span>
            <span>{day}</span>
          </>
        ) : null}
        <span aria-hidden="true">·</span>
        <span>{formatTime12(digest.time)}</span>
      </p>
      <p className={styles.schedule}>
        <NewspaperIcon className={styles.metaIcon} />
        <span>{nextIssueText(digest.nextRunAt, digest.timeZone)}</span>
      </p>
      <p className={styles.schedule}>
        <LinkIcon className={styles.metaIcon} />
        <span>{visibilityLabel(digest.visibility)}</span>
      </p>
      <SourceIcons sourceTypes={digest.sourceTypes} />
      {digest.failingSources > 0 ? (
        <p className={styles.failing}>{failingSourcesLabel(digest.failingSources)}</p>
      ) : null}
      <div className={styles.footer}>
        <p className={styles.subscribers}>
          <UsersIcon className={styles.metaIcon} />
          {subscriberCountLabel(digest.subscriberCount)}
        </p>
        <div className={`${styles.controls} ${styles.raised}`}>
          <Button
            small
            variant="secondary"
            onClick={() => setSharing(true)}
            aria-label={`Share ${digest.name}`}
          >
            <ShareIcon className={styles.buttonIcon} />
            Share
          </Button>
          <ActiveSwitch digest={digest} />
        </div>
      </div>
      <ShareDialog
        digestId={digest.digestId}
        digestName={digest.name}
        open={sharing}
        onOpenChange={setSharing}
      />
    </article>
  );
}
