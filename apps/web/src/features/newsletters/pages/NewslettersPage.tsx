import { EmptyState } from '#web/components/ui/EmptyState';
import { MailIcon } from '#web/components/ui/icons';
import { PageHeader } from '#web/components/ui/PageHeader';
import { useCurrentUser } from '#web/lib/session/use-me';
import styles from './NewslettersPage.module.css';

/** docs/product.md §2 "Newsletters page": coming soon, with the user's newsletter address. */
export function NewslettersPage() {
  const user = useCurrentUser();
  return (
    <>
      <title>Newsletters · Digest</title>
      <PageHeader title={`${user.fullName} Newsletters`} />
      <EmptyState icon={<MailIcon />} title="Coming soon">
        <p>This feature is coming soon. We&apos;ll notify you when it is ready.</p>
        {user.newsletterEmail ? (
          <p className={styles.address}>
            Your newsletter address: <code className={styles.code}>{user.newsletterEmail}</code>
          </p>
        ) : null}
      </EmptyState>
    </>
  );
}
