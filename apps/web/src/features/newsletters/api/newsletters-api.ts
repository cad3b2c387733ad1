import {
  messageResponseSchema,
  type NewsletterMailbox,
  type NewsletterMessage,
  type NewsletterMessageSummary,
  type NewsletterMessagesPage,
  type NewsletterSender,
  type NewsletterSenderStateBody,
  type NewsletterUnsubscribeResponse,
  newsletterMailboxSchema,
  newsletterMessageResponseSchema,
  newsletterMessageSchema,
  newsletterMessagesPageSchema,
  newsletterSenderResponseSchema,
  newsletterUnsubscribeResponseSchema,
} from '@digest/contracts';
import { api } from '#web/lib/api-client';

const id = (value: string) => encodeURIComponent(value);

/** What the inbox is narrowed to: words of the sender or subject, one sender, unread only. */
export interface MessageFilters {
  q: string;
  senderId: string;
  unreadOnly: boolean;
}

export const NO_FILTERS: MessageFilters = { q: '', senderId: '', unreadOnly: false };

/** `GET /newsletters/messages?…`: only the filters that narrow anything, and the page's cursor. */
export function messagesPath(filters: MessageFilters, cursor?: string): string {
  const query = new URLSearchParams();
  const q = filters.q.trim();
  if (q) query.set('q', q);
  if (filters.senderId) query.set('senderId', filters.senderId);
  if (filters.unreadOnly) query.set('unread', 'true');
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `/newsletters/messages?${search}` : '/newsletters/messages';
}

export function fetchMailbox(signal?: AbortSignal): Promise<NewsletterMailbox> {
  return api.get('/newsletters', { schema: newsletterMailboxSchema, signal });
}

export function fetchMessages(
  filters: MessageFilters,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<NewsletterMessagesPage> {
  return api.get(messagesPath(filters, cursor), { schema: newsletterMessagesPageSchema, signal });
}

/** Opening a message marks it read; its `htmlUrl` is a signed link for the reader frame. */
export function fetchMessage(messageId: string, signal?: AbortSignal): Promise<NewsletterMessage> {
  return api.get(`/newsletters/messages/${id(messageId)}`, { schema: newsletterMessageSchema, signal });
}

export function setMessageRead(messageId: string, read: boolean): Promise<NewsletterMessageSummary> {
  return api
    .put(`/newsletters/messages/${id(messageId)}/read`, { read }, { schema: newsletterMessageResponseSchema })
    .then((body) => body.message);
}

/** Unpins a confirmation, forwarding code or reply-to-confirm message. */
export function dismissMessage(messageId: string): Promise<NewsletterMessageSummary> {
  return api
    .post(`/newsletters/messages/${id(messageId)}/dismiss`, undefined, {
      schema: newsletterMessageResponseSchema,
    })
    .then((body) => body.message);
}

export function deleteMessage(messageId: string): Promise<{ message: string }> {
  return api.delete(`/newsletters/messages/${id(messageId)}`, { schema: messageResponseSchema });
}

/** Sends the confirming reply from the user's address (502 when it could not be sent, 409 once done). */
export function replyToConfirm(messageId: string): Promise<NewsletterMessageSummary> {
  return api
    .post(`/newsletters/messages/${id(messageId)}/reply`, undefined, {
      schema: newsletterMessageResponseSchema,
    })
    .then((body) => body.message);
}

export function setSenderState(
  senderId: string,
  state: NewsletterSenderStateBody['state'],
): Promise<NewsletterSender> {
  return api
    .put(`/newsletters/senders/${id(senderId)}`, { state }, { schema: newsletterSenderResponseSchema })
    .then((body) => body.sender);
}

/** Deletes every stored message of the sender; the sender stays listed with its state. */
export function deleteSenderMessages(senderId: string): Promise<NewsletterSender> {
  return api
    .delete(`/newsletters/senders/${id(senderId)}`, { schema: newsletterSenderResponseSchema })
    .then((body) => body.sender);
}

/**
 * The one-click POST or the mailto request, made by the server; it may take the sender's server up to
 * 10 s to answer, so the call waits longer than most.
 */
const UNSUBSCRIBE_TIMEOUT_MS = 30_000;

export function unsubscribeSender(senderId: string): Promise<NewsletterUnsubscribeResponse> {
  return api.post(`/newsletters/senders/${id(senderId)}/unsubscribe`, undefined, {
    schema: newsletterUnsubscribeResponseSchema,
    timeoutMs: UNSUBSCRIBE_TIMEOUT_MS,
  });
}
