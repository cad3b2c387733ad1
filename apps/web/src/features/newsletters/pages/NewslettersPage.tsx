import { Button } from '#web/components/ui/Button';
import { EmptyState } from '#web/components/ui/EmptyState';
import { MailIcon } from '#web/components/ui/icons';
import { PageHeader } from '#web/components/ui/PageHeader';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { useCurrentUser } from '#web/lib/session/use-me';
import { useMailbox } from '../api/use-newsletters';
import { Inbox } from '../components/Inbox';
import { MailboxPanel } from '../components/MailboxPanel';
import { PinnedList } from '../components/PinnedList';
import { SendersList } from '../components/SendersList';
import styles from './NewslettersPage.module.css';

/**
 * docs/product.md §2 "Newsletters page": the user's mailbox. The address and quota, then what needs the
 * user (pinned), then the inbox beside the senders.
 */
export function NewslettersPage() {
  const user = useCurrentUser();
  const mailbox = useMailbox();
  const title = `${user.fullName} Newsletters`;
  return (
    <>
      <title>Newsletters · Digest</title>
      <PageHeader
        title={title}
        description={
          mailbox.data && mailbox.data.unreadCount > 0 ? `${mailbox.data.unreadCount} unread` : undefined
        }
      />
      {mailbox.isPending ? (
        <PageSpinner label="Loading your mailbox…" />
      ) : mailbox.isError ? (
        <EmptyState
          icon={<MailIcon />}
          title="Your mailbox could not be loaded"
          action={<Button onClick={() => void mailbox.refetch()}>Try again</Button>}
        >
          <p>{errorMessage(mailbox.error)}</p>
        </EmptyState>
      ) : (
        <div className={styles.page}>
          <MailboxPanel mailbox={mailbox.data} />
          <PinnedList pinned={mailbox.data.pinned} />
          <div className={styles.columns}>
            <Inbox senders={mailbox.data.senders} />
            <SendersList senders={mailbox.data.senders} />
          </div>
        </div>
      )}
    </>
  );
}
