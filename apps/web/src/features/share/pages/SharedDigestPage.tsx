import { useParams } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { EmptyState } from '#web/components/ui/EmptyState';
import { InboxIcon } from '#web/components/ui/icons';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { DEFAULT_SHARED_TITLE, titleOfHtml, useIssueHtml } from '../api/shared-html';
import { IssueFrame } from '../components/IssueFrame';
import { sharedHtmlApiPath } from '../lib/share-link';
import styles from './SharedDigestPage.module.css';

export const NOT_FOUND_TITLE = 'Digest not found';
export const NOT_FOUND_TEXT =
  'This Digest does not exist, is not public, or no issue of it has been sent yet.';

/** A build number from the URL, or null for the latest; undefined when it is not a number. */
function parseBuildNumber(value: string | undefined): number | null | undefined {
  if (value === undefined) return null;
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/**
 * Public page of a digest issue (docs/product.md §2 "Public routes"): /digests/share/{shareToken}[/{buildNumber}].
 * No login; a spinner while loading; the issue in a sandboxed frame; the tab title from its <title>.
 * Its link-preview tags come with the page's HTML from the server (modules/digests/page-heads.ts): link
 * crawlers run no script.
 */
export function SharedDigestPage() {
  const { shareToken = '', buildNumber: rawBuild } = useParams();
  const buildNumber = parseBuildNumber(rawBuild);
  const valid = buildNumber !== undefined && shareToken !== '';
  const src = sharedHtmlApiPath(shareToken, buildNumber);
  const html = useIssueHtml(src, valid);

  if (!valid || (html.isError && html.error instanceof ApiError && html.error.status === 404)) {
    return (
      <div className={styles.message}>
        <title>{DEFAULT_SHARED_TITLE}</title>
        <EmptyState icon={<InboxIcon />} title={NOT_FOUND_TITLE} headingLevel={1}>
          <p>{NOT_FOUND_TEXT}</p>
        </EmptyState>
      </div>
    );
  }
  if (html.isError) {
    return (
      <div className={styles.message}>
        <title>{DEFAULT_SHARED_TITLE}</title>
        <EmptyState
          icon={<InboxIcon />}
          title="The Digest could not be loaded"
          headingLevel={1}
          action={<Button onClick={() => void html.refetch()}>Try again</Button>}
        >
          <p>{errorMessage(html.error)}</p>
        </EmptyState>
      </div>
    );
  }
  if (html.isPending) {
    return (
      <>
        <title>{DEFAULT_SHARED_TITLE}</title>
        <PageSpinner label="Loading the digest…" />
      </>
    );
  }
  const title = titleOfHtml(html.data);
  return (
    <>
      <title>{title}</title>
      <h1 className="visually-hidden">{title}</h1>
      <IssueFrame src={src} title={title} variant="page" />
    </>
  );
}
