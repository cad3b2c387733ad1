import type { NewsletterMailbox } from '@digest/contracts';
import { Link } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { paths } from '#web/lib/paths';
import { formatMegabytes, quotaPercent } from '../lib/wording';
import { CopyButton } from './CopyButton';
import styles from './MailboxPanel.module.css';

export const NO_USERNAME_TEXT = 'Pick a username in Edit profile to get your newsletter address.';
export const FULL_TEXT =
  'Your mailbox is full: new mail is refused until you delete messages (senders try again for a few days).';
export const NOT_RECEIVING_TEXT =
  'This server does not receive mail yet: its operator has to set INBOUND_SMTP_PORT. Until then nothing sent to your address arrives.';

/** The top of the page: the address to give newsletters, how to use it, and how full the mailbox is. */
export function MailboxPanel({ mailbox }: { mailbox: NewsletterMailbox }) {
  const percent = quotaPercent(mailbox.usedBytes, mailbox.quotaBytes);
  return (
    <section className={styles.panel} aria-labelledby="mailbox-title">
      <h2 id="mailbox-title" className={styles.title}>
        Your newsletter address
      </h2>
      {mailbox.address ? (
        <div className={styles.addressRow}>
          <code className={styles.address}>{mailbox.address}</code>
          <CopyButton text={mailbox.address} what="address" />
        </div>
      ) : (
        <Alert tone="info">
          {NO_USERNAME_TEXT} <Link to={paths.editProfile}>Edit profile</Link>
        </Alert>
      )}
      <p className={styles.howTo}>
        Sign up for a newsletter with this address. Confirmation mails are pinned at the top of this page so
        you can confirm in one click; the issues then arrive in your inbox below, and the senders you include
        can go into your digests.
      </p>
      <div className={styles.quota}>
        <p>
          {formatMegabytes(mailbox.usedBytes)} of {formatMegabytes(mailbox.quotaBytes)} used
        </p>
        <div className={styles.bar} aria-hidden="true">
          <div
            className={mailbox.full ? `${styles.fill} ${styles.fillFull}` : styles.fill}
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      {mailbox.full ? <Alert>{FULL_TEXT}</Alert> : null}
      {mailbox.receiving ? null : <Alert tone="info">{NOT_RECEIVING_TEXT}</Alert>}
    </section>
  );
}
