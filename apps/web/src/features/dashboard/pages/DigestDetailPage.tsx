import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { BackLink } from '#web/components/ui/BackLink';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { EmptyState } from '#web/components/ui/EmptyState';
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  ClockIcon,
  DownloadIcon,
  EditIcon,
  InboxIcon,
  LinkIcon,
  MailIcon,
  NewspaperIcon,
  ShareIcon,
  UsersIcon,
} from '#web/components/ui/icons';
import { PageHeader } from '#web/components/ui/PageHeader';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { Spinner } from '#web/components/ui/Spinner';
import { useOpenBuilder } from '#web/features/builder';
import {
  type Digest,
  hasHealthNews,
  issuePager,
  missedIssueText,
  NextSends,
  nextIssueText,
  SourceHealthLine,
  scheduleLine,
  useDigest,
  useDigestHealth,
  useSendLatestDigest,
  visibilityLabel,
} from '#web/features/digests';
import { useExportDigestOpml } from '#web/features/portability';
import { IssueFrame, ShareDialog, useIssueHtml } from '#web/features/share';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { notifyError } from '#web/lib/notify';
import { paths } from '#web/lib/paths';
import { ActiveSwitch } from '../components/ActiveSwitch';
import { subscriberCountLabel } from '../components/DigestCard';
import { DigestMenu } from '../components/DigestMenu';
import styles from './DigestDetailPage.module.css';

export const NO_BUILDS_TEXT = 'Your Digest will display here once it is sent to you at the scheduled time.';

/** docs/product.md §2 "Digest detail" (/digests/{digestId}). */
export function DigestDetailPage() {
  const { digestId = '' } = useParams();
  const digest = useDigest(digestId);
  if (digest.isPending) return <PageSpinner label="Loading the digest…" />;
  if (digest.isError) {
    const missing =
      digest.error instanceof ApiError && (digest.error.status === 404 || digest.error.status === 400);
    return (
      <>
        <title>Digest not found · Digest</title>
        <PageHeader title={missing ? 'Digest not found' : 'The digest could not be loaded'} />
        <EmptyState
          icon={<InboxIcon />}
          title={missing ? 'This digest does not exist or is not yours.' : errorMessage(digest.error)}
          action={
            missing ? (
              <Link className={buttonClassName()} to={paths.digests}>
                Go to Digests
              </Link>
            ) : (
              <Button onClick={() => void digest.refetch()}>Try again</Button>
            )
          }
        />
      </>
    );
  }
  // Keyed so that the picked issue and a failed send do not carry over to another digest.
  return <DigestDetail key={digest.data.digestId} digest={digest.data} />;
}

function DigestDetail({ digest }: { digest: Digest }) {
  const navigate = useNavigate();
  const { editDigest } = useOpenBuilder();
  const [sharing, setSharing] = useState(false);
  // The issue picked in the pager; null shows the newest (docs/product.md §4).
  const [selectedBuild, setSelectedBuild] = useState<number | null>(null);
  const sendLatest = useSendLatestDigest(digest.digestId);
  const exportOpml = useExportDigestOpml();
  const missed = missedIssueText(digest.lastRun, digest.timeZone);
  // docs/product.md §4: after Send latest digest, the new issue is selected (the digest has been reloaded by then).
  const sendLatestDigest = () =>
    sendLatest.mutate(undefined, { onSuccess: (response) => setSelectedBuild(response.build.buildNumber) });
  return (
    <>
      <title>{`${digest.name} · Digest`}</title>
      <BackLink to={paths.digests} label="Digests" />
      <PageHeader
        title={digest.name}
        actions={
          <DigestMenu
            digestId={digest.digestId}
            name={digest.name}
            onDeleted={() => navigate(paths.digests)}
          />
        }
      />
      <SourcesHealth digest={digest} onEdit={() => editDigest(digest.digestId)} />
      <div className={styles.summary}>
        <div className={styles.facts}>
          <p className={styles.fact}>
            <ClockIcon className={styles.factIcon} />
            {scheduleLine(digest)}
          </p>
          <p className={styles.fact}>
            <UsersIcon className={styles.factIcon} />
            {subscriberCountLabel(digest.subscribers.length)}
          </p>
          <p className={styles.fact}>
            <NewspaperIcon className={styles.factIcon} />
            {nextIssueText(digest.nextRunAt, digest.timeZone)}
          </p>
          <p className={styles.fact}>
            <LinkIcon className={styles.factIcon} />
            {visibilityLabel(digest.visibility)}
          </p>
          {missed ? <p className={styles.missed}>{missed}</p> : null}
        </div>
        <div className={styles.controls}>
          <ActiveSwitch digest={{ ...digest, sourceTypes: digest.sources.map((source) => source.type) }} />
          <Button small variant="secondary" loading={sendLatest.isPending} onClick={sendLatestDigest}>
            {sendLatest.isPending ? null : <MailIcon className={styles.buttonIcon} />}
            Send latest digest
          </Button>
          <Button small variant="secondary" onClick={() => editDigest(digest.digestId)}>
            <EditIcon className={styles.buttonIcon} />
            Edit
          </Button>
          {digest.sources.some((source) => source.type === 'RSS') ? (
            <Button
              small
              variant="secondary"
              loading={exportOpml.isPending}
              onClick={() => exportOpml.mutate({ digestId: digest.digestId, name: digest.name })}
            >
              {exportOpml.isPending ? null : <DownloadIcon className={styles.buttonIcon} />}
              Export feeds (OPML)
            </Button>
          ) : null}
          <Button small onClick={() => setSharing(true)}>
            <ShareIcon className={styles.buttonIcon} />
            Share
          </Button>
        </div>
      </div>
      {digest.active ? (
        <div className={styles.nextSends}>
          <NextSends schedule={digest} timeZone={digest.timeZone} headingLevel={2} />
        </div>
      ) : null}
      {sendLatest.isError ? <p className={styles.sendError}>{errorMessage(sendLatest.error)}</p> : null}
      <Issues digest={digest} selected={selectedBuild} onSelect={setSelectedBuild} />
      <ShareDialog
        digestId={digest.digestId}
        digestName={digest.name}
        open={sharing}
        onOpenChange={setSharing}
      />
    </>
  );
}

/**
 * Issue 17: a line at the top of the page for each source that fails, whose feed moved, or that was moved,
 * with what to do. Nothing while every source reads well.
 */
function SourcesHealth({ digest, onEdit }: { digest: Digest; onEdit: () => void }) {
  const health = useDigestHealth(digest.digestId);
  const news = health.data?.sources.filter(hasHealthNews) ?? [];
  if (news.length === 0) return null;
  const failing = news.filter((source) => source.failing).length;
  return (
    <section aria-label="Source health" className={styles.health}>
      {failing > 0 ? (
        <h2 className={styles.healthTitle}>{`${failing} ${failing === 1 ? 'source' : 'sources'} failing`}</h2>
      ) : null}
      {news.map((source) => (
        <SourceHealthLine key={source.key} health={source} onEdit={onEdit} />
      ))}
    </section>
  );
}

function formatBuildDate(createdAt: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

interface IssuesProps {
  digest: Digest;
  selected: number | null;
  onSelect: (buildNumber: number) => void;
}

/** The issues sent so far, newest selected, with a pager disabled at both ends (docs/product.md §4). */
function Issues({ digest, selected, onSelect }: IssuesProps) {
  const pager = issuePager(digest.builds, selected);
  // The owner's full copy, by the signed link the digest answered (the public page may be off).
  const html = useIssueHtml(pager?.current.htmlLink ?? '', pager !== null);

  // docs/product.md §8: a failed fetch of an issue's HTML is shown as an error notice with the message.
  useEffect(() => {
    if (html.isError) notifyError(errorMessage(html.error));
  }, [html.isError, html.error]);

  if (!pager) {
    return (
      <section aria-label="Issues" className={styles.issues}>
        <EmptyState icon={<InboxIcon />} title="No issues yet">
          <p>{NO_BUILDS_TEXT}</p>
        </EmptyState>
      </section>
    );
  }

  const { current, index, count, previous, next } = pager;
  return (
    <section aria-labelledby="issues-title" className={styles.issues}>
      <div className={styles.pager}>
        <Button
          small
          variant="secondary"
          aria-label="Previous issue"
          disabled={!previous}
          onClick={() => previous && onSelect(previous.buildNumber)}
        >
          <ChevronLeftIcon className={styles.buttonIcon} />
        </Button>
        <div className={styles.pagerText}>
          <h2 id="issues-title" className={styles.issueTitle}>
            Issue {current.buildNumber}
            <span className="visually-hidden">
              , {index + 1} of {count}
            </span>
          </h2>
          <p className={styles.issueDate}>{formatBuildDate(current.createdAt)}</p>
        </div>
        <Button
          small
          variant="secondary"
          aria-label="Next issue"
          disabled={!next}
          onClick={() => next && onSelect(next.buildNumber)}
        >
          <ChevronRightIcon className={styles.buttonIcon} />
        </Button>
      </div>
      {html.isPending ? (
        <div className={styles.loading}>
          <Spinner label="Loading the issue…" />
        </div>
      ) : html.isError ? (
        <p className={styles.htmlError} role="alert">
          {errorMessage(html.error)}
        </p>
      ) : (
        <IssueFrame src={current.htmlLink} title={`${digest.name}, issue ${current.buildNumber}`} />
      )}
    </section>
  );
}
