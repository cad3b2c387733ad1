import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { LinkIcon } from '#web/components/ui/icons';
import { Spinner } from '#web/components/ui/Spinner';
import { useDigest, useSetVisibility } from '#web/features/digests';
import { notifyError } from '#web/lib/notify';
import styles from './PublicLinkTab.module.css';

/** How long 'Copied' stays before the button reads 'Copy link' again. */
const COPIED_RESET_MS = 3000;

const PRIVATE_TEXT = 'This Digest is private: only you and the friends you send it to can read it.';
const PUBLIC_TEXT =
  'Anyone with the link can read every issue of this Digest, no account needed, and it is listed on your public profile while it is active.';
const PRIVATE_BLOCKS_TEXT =
  'Blocks from your connected accounts (Google Calendar, Stripe, X) never appear on the public page: it shows their title and "Private" instead.';
const NEW_LINK_TEXT = 'Turning the link off ends it. Turned on again, it is a new link.';

/**
 * The Public tab of the share dialog (docs/product.md §4, docs/design.md §10): a switch that turns the
 * digest's public link on and off, what a public page shows, and the link with 'Copy link' while it is on.
 */
export function PublicLinkTab({ digestId }: { digestId: string }) {
  const digest = useDigest(digestId);
  const setVisibility = useSetVisibility(digestId);
  if (digest.isPending) return <Spinner label="Loading the public link…" />;
  const shareUrl = digest.data?.shareUrl ?? null;
  const on = digest.data?.visibility === 'public' && shareUrl !== null;
  return (
    <div className={styles.public}>
      <p className={styles.state}>
        Public link: <strong className={on ? styles.on : undefined}>{on ? 'On' : 'Off'}</strong>
      </p>
      <div className={styles.explain}>
        <p>{on ? PUBLIC_TEXT : PRIVATE_TEXT}</p>
        <p>{PRIVATE_BLOCKS_TEXT}</p>
      </div>
      {on ? <CopyLink link={shareUrl} /> : null}
      <div className={styles.actions}>
        <Button
          variant={on ? 'secondary' : 'primary'}
          loading={setVisibility.isPending}
          disabled={digest.isError}
          onClick={() => setVisibility.mutate(on ? 'private' : 'public')}
        >
          {on ? 'Turn off the public link' : 'Turn on the public link'}
        </Button>
        <p className={styles.note}>{NEW_LINK_TEXT}</p>
      </div>
    </div>
  );
}

function CopyLink({ link }: { link: string }) {
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
    } catch {
      inputRef.current?.select();
      notifyError('The link could not be copied: select it and copy it yourself.');
    }
  }

  return (
    <div className={styles.linkField}>
      <label htmlFor={inputId} className={styles.label}>
        Link to the public page
      </label>
      <div className={styles.linkRow}>
        <input
          id={inputId}
          ref={inputRef}
          className={styles.input}
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button onClick={() => void copy()} variant={copied ? 'secondary' : 'primary'}>
          <LinkIcon />
          {copied ? 'Copied' : 'Copy link'}
        </Button>
      </div>
    </div>
  );
}
