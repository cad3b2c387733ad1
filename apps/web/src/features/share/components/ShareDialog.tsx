import { PENDING_EMAILS_SHOWN } from '@digest/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { ChevronLeftIcon, CloseIcon, PlusIcon } from '#web/components/ui/icons';
import { Modal } from '#web/components/ui/Modal';
import { Spinner } from '#web/components/ui/Spinner';
import {
  formatCount,
  type Subscriber,
  useRemoveSubscriber,
  useSetSubscribers,
  useSubscribers,
} from '#web/features/digests';
import { notifyError } from '#web/lib/notify';
import { addPendingEmail, EMPTY_PENDING_MESSAGE } from '../lib/pending-emails';
import { PublicLinkTab } from './PublicLinkTab';
import styles from './ShareDialog.module.css';
import { SubscriberStatusBadge } from './SubscriberStatusBadge';

/** docs/product.md §4/§9: the dialog closes 300 ms after a successful share. */
export const SHARE_CLOSE_DELAY_MS = 300;

interface ShareDialogProps {
  digestId: string;
  digestName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** docs/product.md §2 Share dialog: Private (default) to e-mail friends, Public to turn on and copy the link. */
export function ShareDialog({ digestId, digestName, open, onOpenChange }: ShareDialogProps) {
  const emailInput = useRef<HTMLInputElement>(null);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Share ${digestName}`}
      size="medium"
      initialFocus={emailInput}
    >
      {open ? (
        <ShareTabs digestId={digestId} emailInput={emailInput} onDone={() => onOpenChange(false)} />
      ) : null}
    </Modal>
  );
}

function ShareTabs({
  digestId,
  emailInput,
  onDone,
}: {
  digestId: string;
  emailInput: RefObject<HTMLInputElement | null>;
  onDone: () => void;
}) {
  return (
    <Tabs.Root defaultValue="private" className={styles.tabs}>
      <Tabs.List className={styles.tabList} aria-label="Share with">
        <Tabs.Trigger value="private" className={styles.tab}>
          Private
        </Tabs.Trigger>
        <Tabs.Trigger value="public" className={styles.tab}>
          Public
        </Tabs.Trigger>
      </Tabs.List>
      {/* Kept mounted (hidden by CSS) so the pending list survives a look at the Public tab. */}
      <Tabs.Content value="private" className={styles.panel} forceMount>
        <PrivateShare digestId={digestId} emailInput={emailInput} onDone={onDone} />
      </Tabs.Content>
      <Tabs.Content value="public" className={styles.panel}>
        <PublicLinkTab digestId={digestId} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

/** Friends the digest is shared with: invited (no answer yet) or subscribed. */
const isKept = (subscriber: Subscriber) =>
  subscriber.status === 'invited' || subscriber.status === 'subscribed';

function PrivateShare({
  digestId,
  emailInput,
  onDone,
}: {
  digestId: string;
  emailInput: RefObject<HTMLInputElement | null>;
  onDone: () => void;
}) {
  const subscribers = useSubscribers(digestId);
  const setSubscribers = useSetSubscribers(digestId);
  const [pending, setPending] = useState<string[]>([]);
  const [entered, setEntered] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [view, setView] = useState<'add' | 'all'>('add');
  const returned = useRef(false);
  // Back from the full list: focus goes back to the e-mail box (the Back button is gone).
  useEffect(() => {
    if (view === 'add' && returned.current) emailInput.current?.focus();
    if (view === 'all') returned.current = true;
  }, [view, emailInput]);
  const inputId = useId();
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const all = subscribers.data ?? [];
  const existing = all.filter(isKept).map((subscriber) => subscriber.email);

  function add(event: FormEvent) {
    event.preventDefault();
    const result = addPendingEmail(entered, pending, existing);
    if (!result.ok) {
      setInvalid(true);
      notifyError(result.error);
      return;
    }
    setInvalid(false);
    setPending(result.pending);
    setEntered('');
  }

  function share() {
    if (pending.length === 0) {
      notifyError(EMPTY_PENDING_MESSAGE);
      return;
    }
    setSubscribers.mutate([...pending, ...existing], {
      onSuccess: () => {
        setPending([]);
        closeTimer.current = setTimeout(onDone, SHARE_CLOSE_DELAY_MS);
      },
    });
  }

  if (view === 'all') {
    return <AllSubscribers digestId={digestId} subscribers={all} onBack={() => setView('add')} />;
  }

  const shown = pending.slice(0, PENDING_EMAILS_SHOWN);
  const more = pending.length - shown.length;
  return (
    <div className={styles.private}>
      <p className={styles.intro}>
        Invite friends by e-mail. Issues reach each one once they accept, and they can unsubscribe at any
        time.
      </p>
      <form className={styles.addRow} onSubmit={add} noValidate>
        <div className={styles.addField}>
          <label htmlFor={inputId} className={styles.label}>
            Friend&apos;s email
          </label>
          <input
            id={inputId}
            ref={emailInput}
            className={styles.input}
            type="email"
            inputMode="email"
            autoComplete="off"
            placeholder="friend@example.com"
            value={entered}
            aria-invalid={invalid || undefined}
            onChange={(event) => {
              setEntered(event.target.value);
              setInvalid(false);
            }}
          />
        </div>
        <button type="submit" className={styles.plus} aria-label="Add email to the list">
          <PlusIcon />
        </button>
      </form>

      {pending.length > 0 ? (
        <section aria-label="Emails to add" className={styles.pendingSection}>
          <ul className={styles.pendingList}>
            {shown.map((email) => (
              <li key={email} className={styles.pendingItem}>
                <span className={styles.email}>{email}</span>
                <button
                  type="button"
                  className={styles.remove}
                  aria-label={`Remove ${email} from the list`}
                  onClick={() => setPending((list) => list.filter((item) => item !== email))}
                >
                  <CloseIcon />
                </button>
              </li>
            ))}
          </ul>
          {more > 0 ? <p className={styles.more}>and {more} more</p> : null}
        </section>
      ) : null}

      <div className={styles.totalRow}>
        <p className={styles.total}>
          {subscribers.isPending ? (
            <Spinner label="Loading subscribers…" />
          ) : (
            <>
              Subscribers: <strong>{formatCount(existing.length)}</strong>
            </>
          )}
        </p>
        <button type="button" className={styles.linkButton} onClick={() => setView('all')}>
          See all subscribers
        </button>
      </div>

      <div className={styles.actions}>
        <Button onClick={share} loading={setSubscribers.isPending}>
          Share
        </Button>
      </div>
    </div>
  );
}

function AllSubscribers({
  digestId,
  subscribers,
  onBack,
}: {
  digestId: string;
  subscribers: Subscriber[];
  onBack: () => void;
}) {
  const remove = useRemoveSubscriber(digestId);
  const backRef = useRef<HTMLButtonElement>(null);
  useEffect(() => backRef.current?.focus(), []);
  return (
    <section className={styles.all} aria-labelledby="all-subscribers-title">
      <div className={styles.allHeader}>
        <button ref={backRef} type="button" className={styles.back} onClick={onBack}>
          <ChevronLeftIcon />
          Back
        </button>
        <h3 id="all-subscribers-title" className={styles.allTitle}>
          All subscribers ({formatCount(subscribers.length)})
        </h3>
      </div>
      {subscribers.length === 0 ? (
        <p className={styles.emptyList}>No subscribers yet.</p>
      ) : (
        <ul className={styles.allList}>
          {subscribers.map((subscriber) => {
            return (
              <li key={subscriber.email} className={styles.allItem}>
                <span className={styles.email}>{subscriber.email}</span>
                <SubscriberStatusBadge status={subscriber.status} />
                <button
                  type="button"
                  className={styles.remove}
                  aria-label={`Remove ${subscriber.email}`}
                  disabled={remove.isPending && remove.variables === subscriber.email}
                  onClick={() => remove.mutate(subscriber.email)}
                >
                  <CloseIcon />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
