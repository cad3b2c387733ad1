import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { EmptyState } from '#web/components/ui/EmptyState';
import { InboxIcon, PlusIcon, UploadIcon } from '#web/components/ui/icons';
import { PageHeader } from '#web/components/ui/PageHeader';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { resetBuilder } from '#web/features/builder';
import { useDigests, useDrafts } from '#web/features/digests';
import { OpmlImportDialog } from '#web/features/portability';
import { errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import { DigestCard } from '../components/DigestCard';
import { DraftCard } from '../components/DraftCard';
import styles from './DigestsPage.module.css';

/** docs/product.md §2 "Digests page": the full name plus Digests; digest cards, then draft cards, or the empty state. */
export function DigestsPage() {
  const user = useCurrentUser();
  const digests = useDigests();
  const drafts = useDrafts();
  const [importing, setImporting] = useState(false);

  let content: React.ReactNode;
  if (digests.isPending || drafts.isPending) {
    content = <PageSpinner label="Loading your digests…" />;
  } else if (digests.isError || drafts.isError) {
    const failed = digests.isError ? digests : drafts;
    content = (
      <div className={styles.failure} role="alert">
        <p>{errorMessage(failed.error)}</p>
        <Button
          variant="secondary"
          onClick={() => {
            void digests.refetch();
            void drafts.refetch();
          }}
        >
          Try again
        </Button>
      </div>
    );
  } else if (digests.data.length === 0 && drafts.data.length === 0) {
    content = (
      <EmptyState
        icon={<InboxIcon />}
        title="Nothing here yet."
        action={
          <Link className={buttonClassName()} to={paths.digestCreator} onClick={resetBuilder}>
            <PlusIcon />
            Create Digest
          </Link>
        }
      >
        <p>Click the &quot;Create Digest&quot; button to get started.</p>
      </EmptyState>
    );
  } else {
    content = (
      <>
        {digests.data.length > 0 ? (
          <section aria-label="Your digests">
            <ul className={styles.grid}>
              {digests.data.map((digest) => (
                <li key={digest.digestId} className={styles.cell}>
                  <DigestCard digest={digest} />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {drafts.data.length > 0 ? (
          <section aria-labelledby="drafts-title" className={styles.drafts}>
            <h2 id="drafts-title" className={styles.sectionTitle}>
              Drafts
            </h2>
            <ul className={styles.grid}>
              {drafts.data.map((draft) => (
                <li key={draft.digestId} className={styles.cell}>
                  <DraftCard draft={draft} />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </>
    );
  }

  return (
    <>
      <title>Digests · Digest</title>
      <PageHeader
        title={`${user.fullName} Digests`}
        actions={
          <Button variant="secondary" small onClick={() => setImporting(true)}>
            <UploadIcon />
            Import OPML
          </Button>
        }
      />
      <OpmlImportDialog mode="folders" open={importing} onOpenChange={setImporting} />
      {content}
    </>
  );
}
