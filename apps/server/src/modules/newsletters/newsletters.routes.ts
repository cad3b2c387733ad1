import {
  messageResponseSchema,
  newsletterMailboxSchema,
  newsletterMessageResponseSchema,
  newsletterMessageSchema,
  newsletterMessagesPageSchema,
  newsletterMessagesQuerySchema,
  newsletterReadBodySchema,
  newsletterSenderResponseSchema,
  newsletterSenderStateBodySchema,
  newsletterUnsubscribeResponseSchema,
} from '@digest/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '#server/modules/digests/ids';
import { SHARE_HEADERS, SHARE_RATE_LIMIT } from '#server/modules/digests/share.routes';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { limitByKey } from '#server/platform/http/rate-limit';
import * as newsletters from './newsletters.usecases';
import { type ReplyDeps, replyToConfirm } from './reply-to-confirm';
import { type UnsubscribeDeps, unsubscribeSender } from './unsubscribe';

export interface NewslettersRoutesDeps extends UnsubscribeDeps, ReplyDeps {
  authenticate: Authenticate;
}

/**
 * Unsubscribe and Reply make the server talk to someone else's server in the user's name (an HTTP POST, a
 * mail): limited per account, so one account cannot use them to flood a list or a mailbox.
 */
export const NEWSLETTER_OUTBOUND_RATE_LIMITS = {
  unsubscribe: { max: 20, timeWindow: '1 hour' },
  reply: { max: 20, timeWindow: '1 hour' },
};

/**
 * The reader frame's headers: those of an issue's HTML (no script, https images, inline styles, framable by
 * the app only, no referrer), stricter still. `sandbox` makes the document a unique origin whatever frame
 * shows it, forms go nowhere, and links (the sanitiser gives them `target=_blank`) open in a new tab
 * outside the sandbox.
 */
export const READER_HEADERS = {
  ...SHARE_HEADERS,
  'content-security-policy':
    "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; " +
    "sandbox allow-popups allow-popups-to-escape-sandbox; frame-ancestors 'self'",
  // The user's own mail: never kept by a shared cache.
  'cache-control': 'private, max-age=300',
};

/** A stored fragment as a document of its own, in UTF-8 (the frame has no other way to know). */
const readerDocument = (html: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"></head><body>${html}</body></html>`;

const security = [{ bearerAuth: [] }];
const tags = ['newsletters'];
const messageParams = z.object({ id: z.string().max(100).describe('Message id (UUID)') });
const senderParams = z.object({ id: z.string().max(100).describe('Sender id (UUID)') });

const messageIdOf = (id: string) => {
  if (!isUuid(id)) throw newsletters.newslettersErrors.messageNotFound();
  return id;
};
const senderIdOf = (id: string) => {
  if (!isUuid(id)) throw newsletters.newslettersErrors.senderNotFound();
  return id;
};

/**
 * The user's newsletter mailbox (`username@MAIL_DOMAIN`): what arrived, its senders and what to do about
 * them. Every query names the owner, so another user's message or sender answers 404 and nothing changes.
 */
export function newslettersRoutes(deps: NewslettersRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const userOf = (request: FastifyRequest) => authOf(request).userId;
    const limitUnsubscribes = limitByKey(
      app,
      'newsletter-unsubscribe',
      NEWSLETTER_OUTBOUND_RATE_LIMITS.unsubscribe,
      userOf,
    );
    const limitReplies = limitByKey(app, 'newsletter-reply', NEWSLETTER_OUTBOUND_RATE_LIMITS.reply, userOf);

    app.get(
      '/newsletters',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'The mailbox: address, quota, unread count, senders with counts, and pinned messages',
          security,
          response: { 200: newsletterMailboxSchema },
        },
      },
      async (request) => newsletters.getMailbox(deps, userOf(request)),
    );

    app.get(
      '/newsletters/messages',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Received messages, newest first; q searches sender and subject; keyset pages by cursor',
          security,
          querystring: newsletterMessagesQuerySchema,
          response: { 200: newsletterMessagesPageSchema },
        },
      },
      async (request) => newsletters.listMessages(deps, userOf(request), request.query),
    );

    app.get(
      '/newsletters/messages/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary:
            'One message for the reader (marks it read); htmlUrl is a short-lived signed link to its HTML',
          security,
          params: messageParams,
          response: { 200: newsletterMessageSchema },
        },
      },
      async (request) => newsletters.openMessage(deps, userOf(request), messageIdOf(request.params.id)),
    );

    app.get(
      '/newsletters/messages/:id/html',
      {
        config: { rateLimit: SHARE_RATE_LIMIT },
        schema: {
          tags,
          summary:
            "A message's sanitised HTML (text/html) by the signed htmlUrl, no bearer token; no script runs (CSP sandbox)",
          params: messageParams,
          querystring: z.object({
            expires: z.string().max(20).default(''),
            signature: z.string().max(100).default(''),
          }),
        },
      },
      async (request, reply) => {
        const html = await newsletters.messageHtml(deps, request.params.id, request.query);
        return reply.headers(READER_HEADERS).send(readerDocument(html));
      },
    );

    app.put(
      '/newsletters/messages/:id/read',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Mark a message read or unread',
          security,
          params: messageParams,
          body: newsletterReadBodySchema,
          response: { 200: newsletterMessageResponseSchema },
        },
      },
      async (request) => ({
        message: await newsletters.setRead(
          deps,
          userOf(request),
          messageIdOf(request.params.id),
          request.body.read,
        ),
      }),
    );

    app.post(
      '/newsletters/messages/:id/dismiss',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Unpin a confirmation, forwarding code or reply-to-confirm message',
          description: '422 NEWSLETTER_NOT_PINNED for an ordinary newsletter.',
          security,
          params: messageParams,
          response: { 200: newsletterMessageResponseSchema },
        },
      },
      async (request) => ({
        message: await newsletters.dismiss(deps, userOf(request), messageIdOf(request.params.id)),
      }),
    );

    app.delete(
      '/newsletters/messages/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Delete a message (its bytes leave the quota)',
          security,
          params: messageParams,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await newsletters.deleteMessage(deps, userOf(request), messageIdOf(request.params.id));
        return { message: 'Message deleted.' };
      },
    );

    app.put(
      '/newsletters/senders/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary:
            'Include a sender in digests, mute it (kept, not in digests) or block it (later mail refused)',
          security,
          params: senderParams,
          body: newsletterSenderStateBodySchema,
          response: { 200: newsletterSenderResponseSchema },
        },
      },
      async (request) => ({
        sender: await newsletters.setSenderState(
          deps,
          userOf(request),
          senderIdOf(request.params.id),
          request.body,
        ),
      }),
    );

    app.delete(
      '/newsletters/senders/:id',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: "Delete all of a sender's messages",
          description:
            'The sender stays listed with its state: a blocked sender stays blocked, a muted one muted, and digests that chose it keep it.',
          security,
          params: senderParams,
          response: { 200: newsletterSenderResponseSchema },
        },
      },
      async (request) => ({
        sender: await newsletters.deleteSenderMessages(deps, userOf(request), senderIdOf(request.params.id)),
      }),
    );

    app.post(
      '/newsletters/messages/:id/reply',
      {
        preHandler: [deps.authenticate, limitReplies],
        schema: {
          tags,
          summary: 'Reply to a reply-to-confirm message from the user’s address, once; it is then resolved',
          description:
            '422 NOT_REPLY_TO_CONFIRM for any other kind; 409 ALREADY_RESOLVED once replied to or dismissed; 422 NO_NEWSLETTER_ADDRESS without a username; 502 REPLY_NOT_SENT when the mail could not be sent (nothing changes).',
          security,
          params: messageParams,
          response: { 200: newsletterMessageResponseSchema },
        },
      },
      async (request) => ({
        message: await replyToConfirm(deps, userOf(request), messageIdOf(request.params.id)),
      }),
    );

    app.post(
      '/newsletters/senders/:id/unsubscribe',
      {
        preHandler: [deps.authenticate, limitUnsubscribes],
        schema: {
          tags,
          summary: "Unsubscribe through the sender's List-Unsubscribe: one-click POST, else its mailto",
          description:
            'outcome `sent` (the sender is now unsubscribed), `failed` (detail says why), or `open_link`: the sender only has a web page, which the user must open (`link`); it is never fetched for them. 422 NO_UNSUBSCRIBE when the sender gave no way.',
          security,
          params: senderParams,
          response: { 200: newsletterUnsubscribeResponseSchema },
        },
      },
      async (request) => unsubscribeSender(deps, userOf(request), senderIdOf(request.params.id)),
    );
  };
}
