import { SIGN_UP_MESSAGE } from '@digest/contracts';
import { MailIcon } from '#web/components/ui/icons';
import { useMailTransport } from '#web/lib/site';
import styles from '../pages/RecoverMessagePage.module.css';

/**
 * After an e-mail sign-up: the one answer the server gives, whether or not the address already had an
 * account. A server without SMTP_URL writes its mail to files, so a developer is told where to look.
 */
export function CheckInbox({ email }: { email: string }) {
  const mailTransport = useMailTransport();
  return (
    <div className={styles.body} role="status">
      <span className={styles.icon}>
        <MailIcon />
      </span>
      <p>{SIGN_UP_MESSAGE}</p>
      <p className={styles.address}>
        Sent to <strong>{email}</strong>. No e-mail after a few minutes? Look in your spam folder, or sign up
        again.
      </p>
      {mailTransport === 'outbox' ? (
        <p className={styles.address}>
          This server has no mail server set up (SMTP_URL), so the e-mail was not sent: it was written to the
          outbox folder (DATA_DIR/outbox) on the server. Open it there to follow the link.
        </p>
      ) : null}
    </div>
  );
}
