import { Link } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { MailIcon } from '#web/components/ui/icons';
import { paths } from '#web/lib/paths';
import { succeedAuth, useAuthStore } from '#web/lib/session/session';
import { useForgotPassword } from '../api/use-auth';
import { AuthCard } from '../components/AuthCard';
import styles from './RecoverMessagePage.module.css';

/** docs/product.md §8 recovery message; docs/product.md §2: 'Click to resend' sends the link again. */
export const RECOVERY_MESSAGE =
  'If your account is active then a password reset link will be emailed to you in a few minutes. If you are still having trouble, please contact us.';

export function RecoverMessagePage() {
  const email = useAuthStore((state) => state.forgetPasswordEmail);
  const resend = useForgotPassword(() => succeedAuth('We sent the link again.'));
  return (
    <AuthCard
      title="Check your e-mail"
      footer={
        <>
          Back to <Link to={paths.logIn}>Log in</Link>
        </>
      }
    >
      <title>Check your e-mail · Digest</title>
      <div className={styles.body}>
        <span className={styles.icon}>
          <MailIcon />
        </span>
        <p>{RECOVERY_MESSAGE}</p>
        {email ? (
          <p className={styles.address}>
            Sent to <strong>{email}</strong>
          </p>
        ) : null}
      </div>
      <div className={styles.resend}>
        <span>Didn&apos;t get the e-mail?</span>
        <Button
          variant="secondary"
          small
          loading={resend.isPending}
          onClick={() => {
            if (email) resend.mutate({ email });
          }}
        >
          Click to resend
        </Button>
      </div>
    </AuthCard>
  );
}
