import type { NewsletterMessage } from '@digest/contracts';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { BackLink } from '#web/components/ui/BackLink';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { EmptyState } from '#web/components/ui/EmptyState';
import { InboxIcon } from '#web/components/ui/icons';
import { PageHeader } from '#web/components/ui/PageHeader';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { IssueFrame } from '#web/features/share';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import { useDeleteMessage, useMessage } from '../api/use-newsletters';
import { ReadToggle } from '../components/ReadToggle';
import { authenticationLines, formatDate } from '../lib/wording';
import styles from './NewsletterReaderPage.module.css';

/**
 * `/newsletters/{messageId}`: one received message, its sender and how its origin checked out, and the
 * message itself: its sanitised HTML in a sandboxed frame (or its text). Opening it marks it read.
 */
export function NewsletterReaderPage() {
  const { messageId = '' } = useParams();
  const message = useMessage(messageId);
  if (message.isPending) return <PageSpinner label="Loading the message…" />;
  if (message.isError) {
    const missing = message.error instanceof ApiError && message.error.status === 404;
    return (
      <>
        <title>Message not found · Digest</title>
        <BackLink to={paths.newsletters} label="Newsletters" />
        <PageHeader title={missing ? 'Message not found' : 'The message could not be loaded'} />
        <EmptyState
          icon={<InboxIcon />}
          title={
            missing
              ? 'This message is not in your mailbox (it may have been deleted).'
              : errorMessage(message.error)
          }
          action={
            missing ? (
              <Link className={buttonClassName()} to={paths.newsletters}>
                Go to Newsletters
              </Link>
            ) : (
              <Button onClick={() => void message.refetch()}>Try again</Button>
            )
          }
        />
      </>
    );
  }
  return <Reader key={message.data.messageId} message={message.data} />;
}

function Reader({ message }: { message: NewsletterMessage }) {
  const navigate = useNavigate();
  const remove = useDeleteMessage();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const subject = message.subject || '(no subject)';
  return (
    <>
      <title>{`${subject} · Digest`}</title>
      <BackLink to={paths.newsletters} label="Newsletters" />
      <PageHeader title={subject} />
      <div className={styles.head}>
        <dl className={styles.facts}>
          <div>
            <dt>From</dt>
            <dd>
              {message.senderName ? `${message.senderName} <${message.fromAddress}>` : message.fromAddress}
            </dd>
          </div>
          <div>
            <dt>To</dt>
            <dd>{message.recipient}</dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd>
              <time dateTime={message.receivedAt}>{formatDate(message.receivedAt)}</time>
            </dd>
          </div>
          <div>
            <dt>Checks</dt>
            <dd>
              <ul className={styles.checks} aria-label="Sender authentication">
                {authenticationLines(message.authentication).map((line) => (
                  <li key={line.check} className={line.result === 'pass' ? styles.pass : styles.notPass}>
                    {line.text}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
        <div className={styles.actions}>
          <ReadToggle message={message} variant="secondary" />
          <Button small variant="secondary" onClick={() => setConfirmingDelete(true)}>
            Delete
          </Button>
        </div>
      </div>
      {message.htmlUrl ? (
        <IssueFrame
          src={message.htmlUrl}
          title={`Message: ${subject}`}
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          loadingLabel="Loading the message…"
        />
      ) : (
        <pre className={styles.text}>{message.text || 'This message has no text.'}</pre>
      )}
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title={`Delete “${subject}”?`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(message.messageId, {
            onSuccess: () => navigate(paths.newsletters),
            onSettled: () => setConfirmingDelete(false),
          })
        }
      />
    </>
  );
}
