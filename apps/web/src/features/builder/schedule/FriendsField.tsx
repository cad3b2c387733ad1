import { DIGEST_MESSAGES, MAX_SUBSCRIBERS } from '@digest/contracts';
import { type KeyboardEvent, useId, useState } from 'react';
import { CloseIcon, PlusIcon } from '#web/components/ui/icons';
import { addPendingEmail } from '#web/features/share';
import styles from './SchedulePopup.module.css';

export type AddFriendResult = { ok: true; friends: string[] } | { ok: false; error: string };

/** docs/product.md §5: a valid address goes to the front of the list; a bad one reads '{email} should be a valid email!'. */
export function addFriend(entered: string, friends: readonly string[]): AddFriendResult {
  const result = addPendingEmail(entered, friends, []);
  if (!result.ok) return result;
  if (friends.length >= MAX_SUBSCRIBERS) return { ok: false, error: DIGEST_MESSAGES.maxSubscribers };
  return { ok: true, friends: result.pending };
}

/**
 * 'Share with friends': an e-mail box with a plus button and the list of friends, each removable. It sits
 * inside the schedule form, so Enter in the box adds the address instead of submitting Done.
 */
export function FriendsField({
  friends,
  onChange,
}: {
  friends: readonly string[];
  onChange: (friends: string[]) => void;
}) {
  const [entered, setEntered] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = `${inputId}-error`;

  function add() {
    const result = addFriend(entered, friends);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setEntered('');
    onChange(result.friends);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  }

  return (
    <fieldset className={styles.friends}>
      <legend className={styles.legend}>Share with friends</legend>
      <div className={styles.addRow}>
        <label htmlFor={inputId} className="visually-hidden">
          Friend&apos;s email
        </label>
        <input
          id={inputId}
          className={styles.input}
          type="email"
          inputMode="email"
          autoComplete="off"
          placeholder="friend@example.com"
          value={entered}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setEntered(event.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className={styles.plus} aria-label="Add email to the list" onClick={add}>
          <PlusIcon />
        </button>
      </div>
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {friends.length > 0 ? (
        <ul className={styles.friendList} aria-label="Friends">
          {friends.map((email) => (
            <li key={email} className={styles.friend}>
              <span className={styles.email}>{email}</span>
              <button
                type="button"
                className={styles.remove}
                aria-label={`Remove ${email} from the list`}
                onClick={() => onChange(friends.filter((item) => item !== email))}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
