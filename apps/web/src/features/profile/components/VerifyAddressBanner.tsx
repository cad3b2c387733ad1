import { Button } from '#web/components/ui/Button';
import { useCurrentUser } from '#web/lib/session/use-me';
import { useResendVerification } from '../api/use-profile';
import styles from './VerifyAddressBanner.module.css';

/**
 * Shown in the signed-in app until the account's address is confirmed: the app works, but nothing is mailed
 * from the account before then. Resend mails a new link.
 */
export function VerifyAddressBanner() {
  const user = useCurrentUser();
  const resend = useResendVerification();
  if (user.confirmed) return null;
  return (
    <section className={styles.banner} aria-label="Verify your address">
      <div className={styles.inner}>
        <p className={styles.text}>
          <strong>Verify your address.</strong> Follow the link we sent to <strong>{user.email}</strong>:
          until then, Digest sends no e-mail from your account.
        </p>
        <Button variant="secondary" small loading={resend.isPending} onClick={() => resend.mutate()}>
          Resend
        </Button>
      </div>
    </section>
  );
}
