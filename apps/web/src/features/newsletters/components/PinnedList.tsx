import type { NewsletterMessageSummary } from '@digest/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { errorMessage } from '#web/lib/api-client';
import { newsletterMessagePath } from '#web/lib/paths';
import { useDismiss, useReplyToConfirm } from '../api/use-newsletters';
import { formatDate, pinnedTitle } from '../lib/wording';
import { CopyButton } from './CopyButton';
import styles from './PinnedList.module.css';

/**
 * What needs the user before newsletters can flow: confirmation mails, forwarding codes and lists that
 * ask for a reply, pinned at the top until acted on or dismissed.
 */
export function PinnedList({ pinned }: { pinned: NewsletterMessageSummary[] }) {
  if (pinned.length === 0) return null;
  return (
    <section className={styles.pinned} aria-labelledby="pinned-title">
      <h2 id="pinned-title" className={styles.heading}>
        Needs you
      </h2>
      <ul className={styles.list}>
        {pinned.map((message) => (
          <li key={message.messageId}>
            <PinnedItem message={message} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PinnedItem({ message }: { message: NewsletterMessageSummary }) {
  const dismiss = useDismiss();
  // Once the confirm link has been opened, Dismiss becomes the next step: "Done".
  const [opened, setOpened] = useState(false);
  return (
    <article className={styles.item} aria-labelledby={`pinned-${message.messageId}`}>
      <h3 id={`pinned-${message.messageId}`} className={styles.title}>
        {pinnedTitle(message)}
      </h3>
      <p className={styles.meta}>
        <Link to={newsletterMessagePath(message.messageId)}>{message.subject || '(no subject)'}</Link> ·{' '}
        {message.fromAddress} · {formatDate(message.receivedAt)}
      </p>
      {message.kind === 'forwarding_code' && message.forwardingCode ? (
        <div className={styles.code}>
          <span>Code:</span>
          <code className={styles.codeValue}>{message.forwardingCode}</code>
          <CopyButton text={message.forwardingCode} what="code" />
        </div>
      ) : null}
      {message.kind === 'reply_to_confirm' ? <ReplyAction message={message} /> : null}
      <div className={styles.actions}>
        {message.confirmUrl ? (
          <a
            className={buttonClassName({ small: true })}
            href={message.confirmUrl}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => setOpened(true)}
          >
            {message.kind === 'forwarding_code' ? 'Confirm forwarding' : 'Confirm subscription'}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
        <Button
          small
          variant={opened ? 'primary' : 'secondary'}
          loading={dismiss.isPending}
          onClick={() => dismiss.mutate(message.messageId)}
        >
          {opened ? 'Done' : 'Dismiss'}
        </Button>
      </div>
    </article>
  );
}

/** Reply: the server sends the confirming reply from the user's address; a refusal is shown here. */
function ReplyAction({ message }: { message: NewsletterMessageSummary }) {
  const reply = useReplyToConfirm();
  return (
    <div className={styles.reply}>
      <p>This list confirms by reply. Digest can send a short reply from your address for you.</p>
      <div>
        <Button small loading={reply.isPending} onClick={() => reply.mutate(message.messageId)}>
          Reply to confirm
        </Button>
      </div>
      {reply.isError ? <Alert>{errorMessage(reply.error)}</Alert> : null}
    </div>
  );
}
