import { MIN_SOURCES } from '@digest/contracts';
import { useState } from 'react';
import { Link, Outlet } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { ChevronLeftIcon } from '#web/components/ui/icons';
import { Logo } from '#web/components/ui/Logo';
import { paths } from '#web/lib/paths';
import { BuilderProgress } from '../components/BuilderProgress';
import { SchedulePopup } from '../schedule/SchedulePopup';
import { useBuilderStore } from '../store';
import styles from './BuilderLayout.module.css';

/** docs/product.md §2 /digestCreator has its own layout: the header shows a progress indicator and a Complete button. */
export function BuilderLayout() {
  return (
    <div className={styles.shell}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <BuilderHeader />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

function BuilderHeader() {
  const count = useBuilderStore((state) => state.blocks.length);
  const [scheduling, setScheduling] = useState(false);
  // docs/product.md §5: a digest needs 3 sources, so Complete waits for them (and is disabled with none).
  const canComplete = count >= MIN_SOURCES;
  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <Link className={styles.home} to={paths.digests}>
          <Logo />
        </Link>
        <div className={styles.progress}>
          <BuilderProgress count={count} />
        </div>
        <div className={styles.actions}>
          <Link className={styles.back} to={paths.digests}>
            <ChevronLeftIcon />
            <span className={styles.backText}>Back to Digests</span>
          </Link>
          <Button small disabled={!canComplete} onClick={() => setScheduling(true)}>
            Complete
          </Button>
        </div>
      </div>
      <SchedulePopup open={scheduling} onOpenChange={setScheduling} />
    </header>
  );
}
