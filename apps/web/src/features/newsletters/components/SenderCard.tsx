import type { NewsletterSender, NewsletterSenderStateBody } from '@digest/contracts';
import { useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { useDeleteSenderMessages, useSetSenderState, useUnsubscribe } from '../api/use-newsletters';
import {
  formatDay,
  SENDER_STATE_LABELS,
  senderCounts,
  storedUnsubscribeText,
  unsubscribeNotice,
} from '../lib/wording';
import styles from './SenderCard.module.css';

const STATE_ACTIONS: { state: NewsletterSenderStateBody['state']; label: string }[] = [
  { state: 'included', label: 'Include in digests' },
  { state: 'muted', label: 'Mute' },
  { state: 'blocked', label: 'Block' },
];

/**
 * One sender: who it is, how much it sent, what becomes of its mail (Include, Mute, Block), and the two
 * ways to be rid of it (Unsubscribe at the source, Delete all here).
 */
export function SenderCard({ sender }: { sender: NewsletterSender }) {
  const setState = useSetSenderState();
  const unsubscribe = useUnsubscribe();
  const deleteAll = useDeleteSenderMessages();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const titleId = `sender-${sender.senderId}`;
  return (
    <article className={styles.card} aria-labelledby={titleId}>
      <div className={styles.head}>
        <h3 id={titleId} className={styles.name}>
          {sender.name || sender.address}
        </h3>
        <span className={`${styles.state} ${styles[sender.state]}`}>{SENDER_STATE_LABELS[sender.state]}</span>
      </div>
      <p className={styles.address}>{sender.address}</p>
      <p className={styles.facts}>
        {senderCounts(sender)} · first seen {formatDay(sender.firstSeenAt)}
      </p>
      <fieldset className={styles.states}>
        <legend className="visually-hidden">
          What becomes of the mail of {sender.name || sender.address}
        </legend>
        {STATE_ACTIONS.map(({ state, label }) => (
          <Button
            key={state}
            small
            variant="secondary"
            aria-pressed={sender.state === state}
            disabled={setState.isPending}
            onClick={() => setState.mutate({ senderId: sender.senderId, state })}
          >
            {label}
          </Button>
        ))}
      </fieldset>
      <div className={styles.actions}>
        {sender.canUnsubscribe ? (
          <Button
            small
            variant="secondary"
            loading={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate(sender.senderId)}
          >
            Unsubscribe
          </Button>
        ) : sender.unsubscribePage ? (
          <a href={sender.unsubscribePage} target="_blank" rel="noopener noreferrer" className={styles.link}>
            Unsubscribe on the sender’s page<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
        <Button
          small
          variant="secondary"
          disabled={sender.storedCount === 0}
          onClick={() => setConfirmingDelete(true)}
        >
          Delete all
        </Button>
      </div>
      <UnsubscribeOutcome sender={sender} answer={unsubscribe.data} />
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title={`Delete all ${sender.storedCount} messages from ${sender.name || sender.address}?`}
        confirmLabel="Delete all"
        pending={deleteAll.isPending}
        onConfirm={() => deleteAll.mutate(sender.senderId, { onSettled: () => setConfirmingDelete(false) })}
      />
    </article>
  );
}

/** What Unsubscribe just answered, else the last outcome stored on the sender. */
function UnsubscribeOutcome({
  sender,
  answer,
}: {
  sender: NewsletterSender;
  answer: ReturnType<typeof useUnsubscribe>['data'];
}) {
  if (answer) {
    const notice = unsubscribeNotice(answer);
    if (notice.tone === 'link') {
      return (
        <p className={styles.outcome} role="status">
          {notice.text}{' '}
          <a href={notice.link} target="_blank" rel="noopener noreferrer">
            Open the unsubscribe page<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      );
    }
    return (
      <p className={`${styles.outcome} ${styles[notice.tone]}`} role="status">
        {notice.text}
      </p>
    );
  }
  if (!sender.unsubscribe) return null;
  return (
    <p
      className={`${styles.outcome} ${sender.unsubscribe.outcome === 'sent' ? styles.success : styles.error}`}
    >
      {storedUnsubscribeText(sender.unsubscribe)}
    </p>
  );
}
