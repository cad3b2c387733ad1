import { newsletterPageUrl } from '@digest/contracts';
import type { NewsletterItem, NewslettersContent } from '@digest/contracts/content';
import type { Connector, SourcesDeps, StoredNewsletter } from '#server/sources/connector';

/**
 * How much of whole issues one block holds. Gmail clips a mail past 102 KB (`renderDigestEmail` keeps an
 * issue under 100 KB by cutting items from the end), and a single newsletter is often 50–150 KB: whole
 * issues are kept, newest first, while they fit in this; the others show their excerpt and a link, so one
 * long issue never pushes the rest of the digest out of the mail.
 */
export const WHOLE_ISSUES_MAX_BYTES = 60_000;

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * Newsletters (issue 14): the owner's newsletters from the chosen senders, newest first. In an issue, only
 * those this digest has not carried yet, received since its previous issue; in the builder's preview, the
 * latest. The HTML is what the mailbox stored, already through the one sanitiser.
 */
export function newslettersConnector(
  deps: Pick<SourcesDeps, 'newsletters' | 'appUrl'>,
): Connector<'NEWSLETTERS'> {
  return {
    type: 'NEWSLETTERS',
    fetchContent: async (source, context): Promise<NewslettersContent> => {
      const whole = source.layout === 'full';
      const stored = await deps.newsletters.latest({
        userId: context.userId,
        senders: source.senders,
        limit: source.count,
        digestId: context.digestId,
        receivedIn: context.window,
        withBody: whole,
      });
      let room = WHOLE_ISSUES_MAX_BYTES;
      const items = stored.map((message): NewsletterItem => {
        const summary = itemOf(message, deps.appUrl);
        if (!whole) return summary;
        const body = message.html ? { html: message.html, text: '' } : { html: '', text: message.text };
        const size = byteLength(body.html || body.text);
        if (size > room) return { ...summary, tooLong: true };
        room -= size;
        return { ...summary, ...body };
      });
      return { items };
    },
  };
}

function itemOf(message: StoredNewsletter, appUrl: string): NewsletterItem {
  return {
    messageId: message.messageId,
    subject: message.subject,
    senderName: message.senderName,
    fromAddress: message.fromAddress,
    receivedAt: message.receivedAt.toISOString(),
    excerpt: message.excerpt,
    url: newsletterPageUrl(appUrl, message.messageId),
    html: '',
    text: '',
    tooLong: false,
  };
}
