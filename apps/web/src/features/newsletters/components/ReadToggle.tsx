import type { NewsletterMessageSummary } from '@digest/contracts';
import { Button, type ButtonVariant } from '#web/components/ui/Button';
import { useSetRead } from '../api/use-newsletters';

/** Mark read / Mark unread; `context` (the subject, in a list) is read out to tell the buttons apart. */
export function ReadToggle({
  message,
  variant,
  context,
}: {
  message: Pick<NewsletterMessageSummary, 'messageId' | 'read'>;
  variant: ButtonVariant;
  context?: string;
}) {
  const setRead = useSetRead();
  return (
    <Button
      small
      variant={variant}
      disabled={setRead.isPending}
      onClick={() => setRead.mutate({ messageId: message.messageId, read: !message.read })}
    >
      {message.read ? 'Mark unread' : 'Mark read'}
      {context ? <span className="visually-hidden">: {context}</span> : null}
    </Button>
  );
}
