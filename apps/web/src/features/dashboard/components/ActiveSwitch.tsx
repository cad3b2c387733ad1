import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';
import { useSetActive } from '#web/features/digests';
import styles from './ActiveSwitch.module.css';

/**
 * docs/product.md §2/§4 Active/Paused switch: flips at once and flips back (with the error shown) when the server
 * refuses. Screen readers hear "Active, switch, on/off"; the visible text says Active or Paused.
 */
export function ActiveSwitch({ digestId, active }: { digestId: string; active: boolean }) {
  const setActive = useSetActive();
  const stateId = useId();
  return (
    <div className={styles.root}>
      <Switch.Root
        className={styles.switch}
        checked={active}
        onCheckedChange={(checked) => setActive.mutate({ digestId, active: checked })}
        aria-label="Active"
        aria-describedby={stateId}
      >
        <Switch.Thumb className={styles.thumb} />
      </Switch.Root>
      <span id={stateId} className={active ? styles.on : styles.off}>
        {active ? 'Active' : 'Paused'}
      </span>
    </div>
  );
}
