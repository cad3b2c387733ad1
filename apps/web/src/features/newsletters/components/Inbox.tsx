import type { NewsletterMessageSummary, NewsletterSender } from '@digest/contracts';
import { NEWSLETTER_SEARCH_MAX_LENGTH } from '@digest/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { EmptyState } from '#web/components/ui/EmptyState';
import { InboxIcon } from '#web/components/ui/icons';
import { SelectField } from '#web/components/ui/SelectField';
import { Spinner } from '#web/components/ui/Spinner';
import { TextField } from '#web/components/ui/TextField';
import { errorMessage } from '#web/lib/api-client';
import { newsletterMessagePath } from '#web/lib/paths';
import type { MessageFilters } from '../api/newsletters-api';
import { useDeleteMessage, useMessages } from '../api/use-newsletters';
import { formatDate } from '../lib/wording';
import styles from './Inbox.module.css';
import { ReadToggle } from './ReadToggle';

/** The search is sent once the typing has paused this long, not on every key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** `value`, once it has stayed the same for `delayMs`. */
function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The received issues, newest first: search, filters, a page at a time. */
export function Inbox({ senders }: { senders: NewsletterSender[] }) {
  const [text, setText] = useState('');
  const [senderId, setSenderId] = useState('');
  const [unreadOnly, setUnreadOnly] = useState(false);
  const q = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const filters: MessageFilters = { q, senderId, unreadOnly };
  const filtered = q !== '' || senderId !== '' || unreadOnly;
  return (
    <section className={styles.inbox} aria-labelledby="inbox-title">
      <h2 id="inbox-title" className={styles.heading}>
        Inbox
      </h2>
      <search className={styles.filters}>
        <TextField
          label="Search by sender or subject"
          type="search"
          value={text}
          maxLength={NEWSLETTER_SEARCH_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          className={styles.search}
        />
        <SelectField
          label="Sender"
          value={senderId}
          onChange={(event) => setSenderId(event.target.value)}
          options={[
            { value: '', label: 'All senders' },
            ...senders.map((sender) => ({ value: sender.senderId, label: sender.name || sender.address })),
          ]}
          className={styles.sender}
        />
        <Checkbox
          label="Unread only"
          checked={unreadOnly}
          onChange={(event) => setUnreadOnly(event.target.checked)}
          className={styles.unread}
        />
      </search>
      <MessageList filters={filters} filtered={filtered} />
    </section>
  );
}

function MessageList({ filters, filtered }: { filters: MessageFilters; filtered: boolean }) {
  const messages = useMessages(filters);
  if (messages.isPending) return <Spinner label="Loading your newsletters…" />;
  // A later page that fails keeps the pages already shown (the error is shown under them).
  if (!messages.data) {
    return (
      <div className={styles.error}>
        <Alert>{errorMessage(messages.error)}</Alert>
        <div>
          <Button small variant="secondary" onClick={() => void messages.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  const list = messages.data.pages.flatMap((page) => page.messages);
  if (list.length === 0) {
    return filtered ? (
      <EmptyState icon={<InboxIcon />} title="No messages match">
        <p>Try other words, another sender, or all messages rather than unread ones.</p>
      </EmptyState>
    ) : (
      <EmptyState icon={<InboxIcon />} title="No newsletters yet">
        <p>Subscribe to a newsletter with your address above: its issues appear here as they arrive.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className={styles.list}>
        {list.map((message) => (
          <li key={message.messageId}>
            <MessageRow message={message} />
          </li>
        ))}
      </ul>
      {messages.hasNextPage ? (
        <div className={styles.more}>
          <Button
            variant="secondary"
            loading={messages.isFetchingNextPage}
            onClick={() => void messages.fetchNextPage()}
          >
            Load more
          </Button>
        </div>
      ) : null}
      {messages.isError ? <Alert>{errorMessage(messages.error)}</Alert> : null}
    </>
  );
}

export function MessageRow({ message }: { message: NewsletterMessageSummary }) {
  const remove = useDeleteMessage();
  const subject = message.subject || '(no subject)';
  return (
    <article className={message.read ? styles.row : `${styles.row} ${styles.unreadRow}`}>
      <div className={styles.summary}>
        <p className={styles.from}>
          {message.read ? null : <span className={styles.badge}>Unread</span>}
          <span className={styles.senderName}>{message.senderName || message.fromAddress}</span>
          <time className={styles.date} dateTime={message.receivedAt}>
            {formatDate(message.receivedAt)}
          </time>
        </p>
        <h3 className={styles.subject}>
          <Link to={newsletterMessagePath(message.messageId)}>{subject}</Link>
        </h3>
        {message.excerpt ? <p className={styles.excerpt}>{message.excerpt}</p> : null}
      </div>
      <div className={styles.rowActions}>
        <ReadToggle message={message} variant="ghost" context={subject} />
        <Button
          small
          variant="ghost"
          loading={remove.isPending}
          onClick={() => remove.mutate(message.messageId)}
        >
          Delete<span className="visually-hidden">: {subject}</span>
        </Button>
      </div>
    </article>
  );
}
