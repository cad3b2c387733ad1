import { SOURCE_LABELS, type SourceType } from '@digest/contracts';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { EmptyState } from '../../../components/ui/EmptyState';
import { SparkIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/PageHeader';
import { PageSpinner } from '../../../components/ui/PageSpinner';
import type { Source } from '../../digests/api/schemas';
import { useDigest, useDrafts } from '../../digests/api/use-digests';
import { SourceIcon } from '../../digests/components/SourceIcons';
import { defaultDigestName, useCurrentUser } from '../../profile/api/use-me';
import { useBuilderStore } from '../store';
import styles from './DigestCreatorPage.module.css';

function sourceTitle(source: Source): string {
  const name = typeof source.name === 'string' ? source.name.trim() : '';
  return name || SOURCE_LABELS[source.type as SourceType] || source.type;
}

/**
 * /digestCreator: until the builder lands, it shows what is being made — a new digest (titled with the
 * default name of SPEC §5), a draft, or a digest being edited — with its sources.
 */
export function DigestCreatorPage() {
  const user = useCurrentUser();
  const draftId = useBuilderStore((state) => state.draftId);
  const editDigestId = useBuilderStore((state) => state.editDigestId);
  if (editDigestId) return <EditingDigest digestId={editDigestId} />;
  if (draftId) return <EditingDraft draftId={draftId} />;
  return <Preview name={defaultDigestName(user)} sources={[]} />;
}

function EditingDigest({ digestId }: { digestId: string }) {
  const digest = useDigest(digestId);
  if (digest.isPending) return <PageSpinner label="Loading the digest…" />;
  if (digest.isError) return <Preview name="Digest not found" sources={[]} />;
  return <Preview name={digest.data.name} sources={digest.data.sources} />;
}

function EditingDraft({ draftId }: { draftId: string }) {
  const drafts = useDrafts();
  if (drafts.isPending) return <PageSpinner label="Loading the draft…" />;
  const draft = drafts.data?.find((item) => item.digestId === draftId);
  return <Preview name={draft?.name || 'Untitled digest'} sources={draft?.sources ?? []} />;
}

function Preview({ name, sources }: { name: string; sources: Source[] }) {
  return (
    <>
      <title>{`${name} · Digest`}</title>
      <PageHeader title={name} />
      {sources.length > 0 ? (
        <section aria-labelledby="creator-sources" className={styles.sources}>
          <h2 id="creator-sources" className={styles.sourcesTitle}>
            Sources
          </h2>
          <ol className={styles.list}>
            {sources.map((source, index) => (
              // Sources have no id of their own; their position is their identity here.
              // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in saved order
              <li key={index} className={styles.item}>
                <SourceIcon type={source.type} />
                <span>{sourceTitle(source)}</span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <EmptyState icon={<SparkIcon />} title="The digest builder is on its way">
        <p>
          Soon you will add sources here and choose when your Digest arrives. Meanwhile, your account is
          ready.
        </p>
        <p>
          <Link to={paths.digests}>Go to Digests</Link>
        </p>
      </EmptyState>
    </>
  );
}
