import { DIGEST_NAME_MAX_LENGTH, type Source } from '@digest/contracts';
import type { BlockContext } from '@digest/email/blocks';
import { useEffect, useId, useLayoutEffect, useMemo } from 'react';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { useDigest, useDrafts } from '#web/features/digests';
import { browserLocale, browserTimeZone } from '#web/features/profile';
import { defaultDigestName, useCurrentUser } from '#web/lib/session/use-me';
import { BlockStack } from '../components/BlockStack';
import { useDraftAutosave } from '../drafts/use-draft-autosave';
import { useGuidedSequence } from '../lib/guided';
import { Sidebar } from '../sidebar/Sidebar';
import { claimBuilder, closeSidebar, loadIntoBuilder, setDigestName, useBuilderStore } from '../store';
import styles from './DigestCreatorPage.module.css';

/**
 * /digestCreator: the digest's name and blocks, each previewed live as the e-mail will show it, and the
 * sidebar that adds and edits sources. A draft or a digest opened for editing is loaded first.
 */
export function DigestCreatorPage() {
  const user = useCurrentUser();
  const ownerId = useBuilderStore((state) => state.ownerId);
  const draftId = useBuilderStore((state) => state.draftId);
  const editDigestId = useBuilderStore((state) => state.editDigestId);
  const loadedFrom = useBuilderStore((state) => state.loadedFrom);
  // State left by another user of this browser is never shown: it is replaced before the first paint.
  useLayoutEffect(() => claimBuilder(user.userId), [user.userId]);
  if (ownerId !== user.userId) return <PageSpinner label="Opening the builder…" />;
  if (editDigestId && loadedFrom !== editDigestId) return <LoadDigest digestId={editDigestId} />;
  if (draftId && loadedFrom !== draftId) return <LoadDraft draftId={draftId} />;
  return <Builder />;
}

/** docs/product.md §4 "Editing an existing digest": name, friends, schedule and every source restored. */
function LoadDigest({ digestId }: { digestId: string }) {
  const digest = useDigest(digestId);
  useEffect(() => {
    if (!digest.data) return;
    const {
      name,
      sources,
      scheduleType,
      time,
      weekDay,
      monthDay,
      issueRetentionMonths,
      sendOnlyWhenNew,
      minSourcesToSend,
      subscribers,
    } = digest.data;
    loadIntoBuilder(digestId, {
      name,
      sources: sources as Source[],
      schedule: { scheduleType, time, weekDay, monthDay },
      issueRetentionMonths,
      sendOnlyWhenNew,
      minSourcesToSend,
      subscribers: subscribers ?? [],
    });
  }, [digest.data, digestId]);
  if (digest.isError) return <LoadFailed what="digest" />;
  return <PageSpinner label="Loading the digest…" />;
}

/** docs/product.md §4 "Drafts": editing a draft rebuilds its sources; their content then loads in each block. */
function LoadDraft({ draftId }: { draftId: string }) {
  const drafts = useDrafts();
  const draft = drafts.data?.find((item) => item.digestId === draftId);
  useEffect(() => {
    if (draft) loadIntoBuilder(draftId, { name: draft.name, sources: draft.sources as Source[] });
  }, [draft, draftId]);
  if (drafts.isError || (drafts.data && !draft)) return <LoadFailed what="draft" />;
  return <PageSpinner label="Loading the draft…" />;
}

function LoadFailed({ what }: { what: string }) {
  return (
    <p role="alert" className={styles.failed}>
      This {what} could not be loaded: it may have been deleted. Use Create digest to start a new one.
    </p>
  );
}

function Builder() {
  const user = useCurrentUser();
  const sidebarOpen = useBuilderStore((state) => state.sidebarOpen);
  const name = useBuilderStore((state) => state.name);
  const nameId = useId();
  useGuidedSequence();
  useDraftAutosave();
  const context = useMemo<BlockContext>(
    () => ({
      locale: user.timezone?.locale ?? browserLocale(),
      timeZone: user.timezone?.timezone ?? browserTimeZone(),
    }),
    [user.timezone],
  );
  const fallbackName = defaultDigestName(user);
  return (
    <div className={sidebarOpen ? `${styles.page} ${styles.withSidebar}` : styles.page}>
      <title>{`${name || fallbackName} · Digest builder`}</title>
      <section className={styles.canvas} aria-labelledby={nameId}>
        <h1 className={styles.visuallyHidden} id={nameId}>
          Build your Digest
        </h1>
        <label className={styles.nameLabel} htmlFor={`${nameId}-name`}>
          Digest name
        </label>
        <input
          id={`${nameId}-name`}
          className={styles.name}
          value={name ?? fallbackName}
          maxLength={DIGEST_NAME_MAX_LENGTH}
          onChange={(event) => setDigestName(event.target.value)}
          onBlur={(event) => {
            if (!event.target.value.trim()) setDigestName('');
          }}
          placeholder={fallbackName}
        />
        <BlockStack context={context} />
      </section>
      {sidebarOpen ? (
        <div className={styles.sidebar}>
          {/* The scrim is for mouse and touch; keyboards and screen readers use the sidebar's own Close. */}
          <button
            type="button"
            className={styles.scrim}
            aria-hidden="true"
            tabIndex={-1}
            onClick={closeSidebar}
          />
          <div className={styles.sheet}>
            <Sidebar />
          </div>
        </div>
      ) : null}
    </div>
  );
}
