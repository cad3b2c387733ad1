import {
  CATCH_UP_KINDS,
  CATCH_UP_TITLE,
  catchesUp,
  pausedLongerThanPeriod,
  type ScheduleType,
  type SourceType,
} from '@digest/contracts';
import * as Switch from '@radix-ui/react-switch';
import { useId, useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { Modal } from '#web/components/ui/Modal';
import { useSetActive } from '#web/features/digests';
import styles from './ActiveSwitch.module.css';

/** What the switch needs of a digest: its state, and whether a resume may offer a catch-up issue. */
export interface SwitchDigest {
  digestId: string;
  name: string;
  active: boolean;
  pausedAt: string | null;
  scheduleType: ScheduleType;
  sourceTypes: readonly SourceType[];
}

/**
 * Issue 17 "While you were away": a digest paused for longer than its period, with a source that can catch
 * up, is resumed through the confirmation instead of at once.
 */
export function offersCatchUp(digest: SwitchDigest, now: Date): boolean {
  return (
    !digest.active &&
    digest.pausedAt !== null &&
    pausedLongerThanPeriod(digest.scheduleType, new Date(digest.pausedAt), now) &&
    digest.sourceTypes.some(catchesUp)
  );
}

const CONTENT_WORDS: Record<(typeof CATCH_UP_KINDS)[number], string> = {
  RSS: 'feed items',
  NEWSLETTERS: 'newsletters',
  HACKER_NEWS: 'Hacker News best',
};

/** "the feed items, newsletters and Hacker News best": what this digest's catch-up would hold. */
export function catchUpContents(sourceTypes: readonly SourceType[]): string {
  const words = CATCH_UP_KINDS.filter((kind) => sourceTypes.includes(kind)).map(
    (kind) => CONTENT_WORDS[kind],
  );
  const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
  return `the ${list}`;
}

const DAY_MS = 86_400_000;

/** "9 days", "3 weeks", "2 months": how long the digest has been paused, roughly. */
export function pausedFor(pausedAt: string, now: Date): string {
  const days = Math.floor((now.getTime() - Date.parse(pausedAt)) / DAY_MS);
  const [count, unit] =
    days < 14 ? [days, 'day'] : days < 61 ? [Math.floor(days / 7), 'week'] : [Math.floor(days / 30), 'month'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * docs/product.md §2/§4 Active/Paused switch: flips at once and flips back (with the error shown) when the server
 * refuses. Screen readers hear "Active, switch, on/off"; the visible text says Active or Paused. Turning on a
 * digest paused for longer than its period first asks whether to send one catch-up issue (issue 17).
 */
export function ActiveSwitch({ digest, now = () => new Date() }: { digest: SwitchDigest; now?: () => Date }) {
  const setActive = useSetActive();
  const stateId = useId();
  const [asking, setAsking] = useState<Date | null>(null);
  const { digestId, active } = digest;
  const resume = (catchUp: boolean) => {
    setAsking(null);
    setActive.mutate({ digestId, active: true, ...(catchUp ? { catchUp } : {}) });
  };
  return (
    <div className={styles.root}>
      <Switch.Root
        className={styles.switch}
        checked={active}
        onCheckedChange={(checked) => {
          const at = now();
          if (checked && offersCatchUp(digest, at)) setAsking(at);
          else setActive.mutate({ digestId, active: checked });
        }}
        aria-label="Active"
        aria-describedby={stateId}
      >
        <Switch.Thumb className={styles.thumb} />
      </Switch.Root>
      <span id={stateId} className={active ? styles.on : styles.off}>
        {active ? 'Active' : 'Paused'}
      </span>
      {asking && digest.pausedAt ? (
        <Modal
          open
          onOpenChange={(open) => {
            if (!open) setAsking(null);
          }}
          title={`Resume “${digest.name}”?`}
          description={
            <>
              It has been paused for {pausedFor(digest.pausedAt, asking)}. One catch-up issue, marked “
              {CATCH_UP_TITLE}”, can bring you {catchUpContents(digest.sourceTypes)} of that time. After it,
              issues come on the usual schedule.
            </>
          }
          size="small"
        >
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => resume(false)}>
              Resume without
            </Button>
            <Button onClick={() => resume(true)}>Send one catch-up issue</Button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}
