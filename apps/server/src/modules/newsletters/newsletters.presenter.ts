import type {
  NewsletterMessage,
  NewsletterMessageKind,
  NewsletterMessageSummary,
  NewsletterSender,
  NewsletterSenderState,
} from '@digest/contracts';
import type { InboundMessageRow } from './mailbox.repository';
import type { MessageSummaryRow, SenderWithCountsRow } from './newsletters.repository';

/** `value` when it is an https URL: the only kind of page the app links for the user to open. */
function httpsPage(value: string | null): string | null {
  if (value === null) return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

export function presentSender({ sender, storedCount, unreadCount }: SenderWithCountsRow): NewsletterSender {
  // A plain web link is not enough: Unsubscribe then only says which page to open.
  const canUnsubscribe =
    (sender.unsubscribeUrl !== null && sender.unsubscribeOneClick) || sender.unsubscribeMailto !== null;
  return {
    senderId: sender.senderId,
    name: sender.name,
    address: sender.address,
    listId: sender.listId,
    state: sender.state as NewsletterSenderState,
    firstSeenAt: sender.firstSeenAt.toISOString(),
    lastSeenAt: sender.lastSeenAt.toISOString(),
    messageCount: sender.messageCount,
    storedCount,
    unreadCount,
    canUnsubscribe,
    unsubscribePage: canUnsubscribe ? null : httpsPage(sender.unsubscribeUrl),
    unsubscribe:
      sender.unsubscribeOutcome && sender.unsubscribedAt
        ? {
            outcome: sender.unsubscribeOutcome as 'sent' | 'failed',
            detail: sender.unsubscribeDetail,
            at: sender.unsubscribedAt.toISOString(),
          }
        : null,
  };
}

export function presentSummary(row: MessageSummaryRow): NewsletterMessageSummary {
  return {
    messageId: row.messageId,
    senderId: row.senderId,
    senderName: row.senderName,
    fromAddress: row.fromAddress,
    subject: row.subject,
    excerpt: row.excerpt,
    receivedAt: row.receivedAt.toISOString(),
    read: row.readAt !== null,
    kind: row.kind as NewsletterMessageKind,
    confirmUrl: row.confirmUrl,
    forwardingCode: row.forwardingCode,
    resolved: row.resolvedAt !== null,
  };
}

export function presentMessage(
  summary: MessageSummaryRow,
  message: InboundMessageRow,
  htmlUrl: string | null,
): NewsletterMessage {
  return {
    ...presentSummary(summary),
    recipient: message.recipient,
    replyTo: message.replyTo,
    sentAt: message.sentAt.toISOString(),
    sizeBytes: message.sizeBytes,
    authentication: message.authentication as NewsletterMessage['authentication'],
    text: message.text,
    hasHtml: message.html !== null,
    htmlUrl,
  };
}
