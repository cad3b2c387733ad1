import type {
  NewsletterAuthentication,
  NewsletterMessageSummary,
  NewsletterSender,
  NewsletterSenderState,
  NewsletterUnsubscribeResponse,
} from '@digest/contracts';

const BYTES_PER_MB = 1024 * 1024;

/** A mailbox size as people read it: "0 MB", "0.4 MB", "12 MB", "200 MB". */
export function formatMegabytes(bytes: number): string {
  const megabytes = bytes / BYTES_PER_MB;
  if (megabytes === 0) return '0 MB';
  if (megabytes < 10) return `${Math.max(0.1, Math.round(megabytes * 10) / 10)} MB`;
  return `${Math.round(megabytes)} MB`;
}

/** The share of the quota used, 0–100, for the bar under the figures. */
export function quotaPercent(usedBytes: number, quotaBytes: number): number {
  if (quotaBytes <= 0) return 100;
  return Math.min(100, Math.round((usedBytes / quotaBytes) * 100));
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

export const SENDER_STATE_LABELS: Record<NewsletterSenderState, string> = {
  included: 'In digests',
  muted: 'Muted',
  blocked: 'Blocked',
  unsubscribed: 'Unsubscribed',
};

/** One check as a person reads it: "DKIM pass (example.com)", "SPF none". */
export function authenticationText(
  check: 'SPF' | 'DKIM' | 'DMARC',
  { result, domain }: NewsletterAuthentication['spf'],
): string {
  return domain ? `${check} ${result} (${domain})` : `${check} ${result}`;
}

/** The checks in the order a reader weighs them: the domain's policy last. */
export function authenticationLines(authentication: NewsletterAuthentication) {
  return [
    { check: 'SPF', text: authenticationText('SPF', authentication.spf), result: authentication.spf.result },
    {
      check: 'DKIM',
      text: authenticationText('DKIM', authentication.dkim),
      result: authentication.dkim.result,
    },
    {
      check: 'DMARC',
      text: authenticationText('DMARC', authentication.dmarc),
      result: authentication.dmarc.result,
    },
  ] as const;
}

/** The heading of a pinned message: what it asks the user to do, and for whom. */
export function pinnedTitle(message: Pick<NewsletterMessageSummary, 'kind' | 'senderName'>): string {
  switch (message.kind) {
    case 'forwarding_code':
      return `Forwarding code from ${message.senderName}`;
    case 'reply_to_confirm':
      return `Reply to confirm your subscription to ${message.senderName}`;
    default:
      return `Confirm your subscription to ${message.senderName}`;
  }
}

export type UnsubscribeNotice =
  | { tone: 'success' | 'error'; text: string }
  | { tone: 'link'; text: string; link: string };

/** What Unsubscribe just answered, as the sender's card says it. */
export function unsubscribeNotice(answer: NewsletterUnsubscribeResponse): UnsubscribeNotice {
  if (answer.outcome === 'sent') {
    return { tone: 'success', text: `Unsubscribed. ${answer.detail ?? ''}`.trim() };
  }
  if (answer.outcome === 'open_link' && answer.link) {
    return {
      tone: 'link',
      text: answer.detail ?? 'This sender unsubscribes only on its own web page: open the link to finish.',
      link: answer.link,
    };
  }
  return { tone: 'error', text: `Unsubscribe failed. ${answer.detail ?? ''}`.trim() };
}

/** The last unsubscribe tried for the sender, as stored: "Unsubscribed on 3 Mar 2026: …". */
export function storedUnsubscribeText(unsubscribe: NonNullable<NewsletterSender['unsubscribe']>): string {
  const when = formatDay(unsubscribe.at);
  const what = unsubscribe.outcome === 'sent' ? 'Unsubscribed' : 'Unsubscribe failed';
  return `${what} on ${when}${unsubscribe.detail ? `: ${unsubscribe.detail}` : '.'}`;
}

/** "3 received · 2 stored · 1 unread" */
export function senderCounts(sender: Pick<NewsletterSender, 'messageCount' | 'storedCount' | 'unreadCount'>) {
  return `${sender.messageCount} received · ${sender.storedCount} stored · ${sender.unreadCount} unread`;
}
