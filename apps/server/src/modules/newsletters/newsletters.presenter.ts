import type {
  NewsletterMessage,
  NewsletterMessageKind,
  NewsletterMessageSummary,
  NewsletterSender,
  NewsletterSenderState,
} from '@digest/contracts';
import type { InboundMessageRow } from './mailbox.repository';
import type { MessageSummaryRow, SenderWithCountsRow } from './newsletters.repository';

export function presentSender({ sender, storedCount, unreadCount }: SenderWithCountsRow): NewsletterSender {
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
    // A plain web link is not enough: Unsubscribe then only says which page to open.
    canUnsubscribe:
      (sender.unsubscribeUrl !== null && sender.unsubscribeOneClick) || sender.unsubscribeMailto !== null,
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
