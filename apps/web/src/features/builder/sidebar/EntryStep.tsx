import { type DataSource, DIGEST_MESSAGES, MAX_SOURCES } from '@digest/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { useId, useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '#web/components/ui/icons';
import { SourceIcon } from '#web/features/digests';
import { errorMessage } from '#web/lib/api-client';
import { MEDIA_QUERIES } from '#web/lib/breakpoints';
import { useMediaQuery } from '#web/lib/use-media-query';
import { useCatalogue } from '../api/catalogue-api';
import { ResultPanel, SearchBox, useDebouncedSearch } from '../sources/form/Search';
import { selectSource, useBuilderStore } from '../store';
import styles from './EntryStep.module.css';
import {
  ENTRY_TAB_LABELS,
  ENTRY_TABS,
  type EntryTab,
  KINDS_PER_VIEW,
  kindsOfTab,
  kindsOfView,
  searchKinds,
  tabHasKinds,
  viewCount,
} from './entry-view';
import { ImportOpml } from './ImportOpml';
import { TemplatesSection } from './TemplatesSection';

/** What every list of kinds needs to draw itself. */
interface KindListProps {
  kinds: DataSource[] | undefined;
  loading: boolean;
  error: string | null;
  /** At MAX_SOURCES no kind can be added. */
  full: boolean;
}

/**
 * docs/product.md §2 entry step: search the kinds, or browse them by category (Popular by default), each category's
 * kinds followed by its templates.
 */
export function EntryStep() {
  const catalogue = useCatalogue();
  const full = useBuilderStore((state) => state.blocks.length >= MAX_SOURCES);
  const [text, setText] = useState('');
  const query = useDebouncedSearch(text);
  const list: Omit<KindListProps, 'kinds'> = {
    loading: catalogue.isPending,
    error: catalogue.isError ? errorMessage(catalogue.error) : null,
    full,
  };
  return (
    <div className={styles.entry}>
      <SearchBox label="Search sources" placeholder="Search sources" value={text} onChange={setText} />
      <div className={styles.import}>
        <ImportOpml full={full} />
      </div>
      {full ? (
        <p className={styles.full} role="status">
          {DIGEST_MESSAGES.maxSources}
        </p>
      ) : null}
      {query ? (
        <ResultPanel
          title="Results"
          {...list}
          items={catalogue.data && searchKinds(catalogue.data, query)}
          keyOf={(kind) => kind.type}
          renderItem={(kind) => <KindButton kind={kind} full={full} />}
        />
      ) : (
        <CategoryTabs {...list} kinds={catalogue.data} />
      )}
    </div>
  );
}

function CategoryTabs(props: KindListProps) {
  return (
    <Tabs.Root defaultValue={'popular' satisfies EntryTab} className={styles.tabs}>
      {/* On mobile the tab list scrolls sideways: the category carousel. */}
      <Tabs.List className={styles.tabList} aria-label="Source categories">
        {ENTRY_TABS.map((tab) => (
          <Tabs.Trigger key={tab} value={tab} className={styles.tab}>
            {ENTRY_TAB_LABELS[tab]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {ENTRY_TABS.map((tab) => (
        <Tabs.Content key={tab} value={tab} className={styles.tabContent}>
          {tabHasKinds(tab) ? (
            <KindViews
              {...props}
              title={ENTRY_TAB_LABELS[tab]}
              kinds={props.kinds && kindsOfTab(props.kinds, tab)}
            />
          ) : null}
          <TemplatesSection category={tab} full={props.full} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

/** The kinds of one tab, a view at a time, with previous / next controls when there are several. */
function KindViews({ title, kinds, loading, error, full }: KindListProps & { title: string }) {
  const mobile = useMediaQuery(MEDIA_QUERIES.mobile);
  const perView = KINDS_PER_VIEW[mobile ? 'mobile' : 'desktop'];
  const [wanted, setWanted] = useState(0);
  const views = viewCount(kinds?.length ?? 0, perView);
  const view = Math.min(wanted, views - 1);
  const statusId = useId();
  return (
    <div className={styles.views}>
      <ResultPanel
        title={title}
        loading={loading}
        error={error}
        items={kinds && kindsOfView(kinds, view, perView)}
        keyOf={(kind) => kind.type}
        renderItem={(kind) => <KindButton kind={kind} full={full} />}
      />
      {!loading && views > 1 ? (
        <div className={styles.pager}>
          <button
            type="button"
            className={styles.pageButton}
            aria-label="Previous sources"
            aria-describedby={statusId}
            disabled={view === 0}
            onClick={() => setWanted(view - 1)}
          >
            <ChevronLeftIcon />
          </button>
          <span id={statusId} className={styles.pageStatus} aria-live="polite">
            {view + 1} of {views}
          </span>
          <button
            type="button"
            className={styles.pageButton}
            aria-label="Next sources"
            aria-describedby={statusId}
            disabled={view === views - 1}
            onClick={() => setWanted(view + 1)}
          >
            <ChevronRightIcon />
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** A kind to add; one this server cannot serve is disabled and says why. */
function KindButton({ kind, full }: { kind: DataSource; full: boolean }) {
  const unavailable = !kind.configured;
  return (
    <button
      type="button"
      className={styles.kind}
      disabled={full || unavailable}
      onClick={() => selectSource(kind.type)}
    >
      {/* The icon repeats the name: hidden so the button is not read "Weather Weather". */}
      <span aria-hidden="true">
        <SourceIcon type={kind.type} />
      </span>
      <span className={styles.kindText}>
        <span className={styles.kindName}>{kind.name}</span>
        {unavailable && kind.reason ? <span className={styles.reason}>{kind.reason}</span> : null}
      </span>
    </button>
  );
}
