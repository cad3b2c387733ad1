import type { Subscription } from '@digest/contracts';
import { useParams, useSearchParams } from 'react-router';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { errorMessage } from '#web/lib/api-client';
import { type InvitationAnswer, useAnswerInvitation, useSubscription } from '../api/subscriptions-api';
import { LinkFailure } from '../components/LinkFailure';
import styles from './UnsubscribePage.module.css';

export const INVALID_INVITATION_TEXT =
  'This invitation link is not valid. It may have been mistyped or cut short, or the Digest was deleted.';

const FREQUENCY: Record<Subscription['scheduleType'], string> = {
  daily: 'one e-mail a day',
  weekly: 'one e-mail a week',
  monthly: 'one e-mail a month',
};

/** What the page says once the friend has answered (or when the link is opened again later). */
const ANSWERED: Partial<Record<Subscription['status'], (s: Subscription) => string>> = {
  subscribed: (s) =>
    `You accepted. ${s.email} will receive ${s.digestName}; every issue has a link to unsubscribe.`,
  declined: (s) =>
    `You declined. ${s.email} will not receive ${s.digestName}, and ${s.ownerName} cannot invite you again.`,
  unsubscribed: (s) => `${s.email} does not receive ${s.digestName}.`,
  bouncing: (s) => `Mail to ${s.email} could not be delivered, so nothing is sent to it.`,
};

/**
 * `/invitations/{token}` (no login), opened from the invitation e-mail. Opening the page changes nothing,
 * whatever `?answer=` says (mail scanners follow links): the friend answers with a button. `?answer=decline`
 * or `never` (the mail's decline links) puts that choice first.
 */
export function InvitationPage() {
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const subscription = useSubscription(token);
  const answer = useAnswerInvitation(token);
  const declining = search.get('answer') === 'decline' || search.get('answer') === 'never';
  const never = search.get('answer') === 'never';

  let body: React.ReactNode;
  if (subscription.isPending) {
    body = <PageSpinner label="Loading your invitation…" />;
  } else if (subscription.isError) {
    body = (
      <LinkFailure
        title="Invitation"
        invalidText={INVALID_INVITATION_TEXT}
        error={subscription.error}
        retry={() => void subscription.refetch()}
      />
    );
  } else {
    const current = subscription.data;
    const answered = ANSWERED[current.status];
    const send = (choice: InvitationAnswer) => answer.mutate(choice);
    body = (
      <>
        <h1 className={styles.title}>
          {current.ownerName} invites you to {current.digestName}
        </h1>
        <p className={styles.text}>
          <strong>{current.digestName}</strong> is a newsletter made with Digest:{' '}
          {FREQUENCY[current.scheduleType]} to <strong>{current.email}</strong>, from{' '}
          <strong>{current.ownerName}</strong>. Nothing is sent to you unless you accept.
        </p>
        {answered ? (
          <p className={styles.text} role="status">
            {answered(current)}
          </p>
        ) : null}
        {answer.isError ? <Alert>{errorMessage(answer.error)}</Alert> : null}
        {current.status === 'subscribed' ? null : (
          <div className={styles.actions}>
            <Button
              onClick={() => send('accept')}
              variant={declining ? 'secondary' : 'primary'}
              loading={answer.isPending && answer.variables === 'accept'}
            >
              Accept
            </Button>
            {current.status === 'declined' ? null : (
              <Button
                onClick={() => send('decline')}
                variant={declining && !never ? 'primary' : 'secondary'}
                loading={answer.isPending && answer.variables === 'decline'}
              >
                Decline
              </Button>
            )}
          </div>
        )}
        {current.status === 'subscribed' ? null : (
          <Button
            onClick={() => send('never')}
            variant={never ? 'danger' : 'ghost'}
            small
            loading={answer.isPending && answer.variables === 'never'}
          >
            Never invite me again, from anyone
          </Button>
        )}
      </>
    );
  }

  return (
    <div className={styles.page}>
      <title>Invitation · Digest</title>
      <section className={styles.card}>{body}</section>
    </div>
  );
}
