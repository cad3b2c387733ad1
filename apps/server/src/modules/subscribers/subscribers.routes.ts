import {
  subscriberListResponseSchema,
  subscribersPutSchema,
  subscribersUpdateResponseSchema,
  subscriptionResponseSchema,
  unsubscribeResponseSchema,
} from '@digest/contracts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, isUuid } from '#server/modules/digests/ids';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { limitByKey } from '#server/platform/http/rate-limit';
import { subscribersErrors } from './subscribers.errors';
import * as subscribers from './subscribers.usecases';

export const SUBSCRIBERS_RATE_LIMITS = {
  /** Each change can mail up to 100 people: per account. */
  setPerUser: { max: 60, timeWindow: '1 hour' },
  /** The public token calls, per client address. */
  tokenPerIp: { max: 60, timeWindow: '1 minute' },
};

export interface SubscribersRoutesDeps extends subscribers.SubscribersDeps {
  authenticate: Authenticate;
}

const security = [{ bearerAuth: [] }];
const tags = ['subscribers'];
const tokenParams = z.object({
  token: z.string().max(200).describe('The token of the links in the invitation and every issue'),
});

/** The friend's answers to an invitation (the page's buttons; a GET never answers). */
const ANSWERS = [
  { path: 'accept', summary: 'Accept the invitation: issues start', answer: subscribers.acceptInvitation },
  {
    path: 'decline',
    summary: 'Decline the invitation: nothing is sent, the owner cannot invite this address again',
    answer: subscribers.declineInvitation,
  },
  {
    path: 'never',
    summary: 'Decline, and no owner can invite this address again',
    answer: subscribers.blockInvitations,
  },
] as const;

function digestIdOf(id: string) {
  if (!isUuid(id)) throw subscribersErrors.digestNotFound();
  return id;
}

/** The owner's subscriber list of a digest (SPEC "not shown" calls, named in docs/design.md §5). */
export function subscribersRoutes(deps: SubscribersRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const perUser = limitByKey(
      app,
      'subscribers-set',
      SUBSCRIBERS_RATE_LIMITS.setPerUser,
      (request) => authOf(request).userId,
    );

    app.get(
      '/digests/:id/subscribers',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Subscribers of a digest, unsubscribed ones included (with the time)',
          security,
          params: idParams,
          response: { 200: subscriberListResponseSchema },
        },
      },
      async (request) => ({
        subscribers: await subscribers.listSubscribers(
          deps,
          authOf(request).userId,
          digestIdOf(request.params.id),
        ),
      }),
    );

    app.put(
      '/digests/:id/subscribers',
      {
        preHandler: [deps.authenticate, perUser],
        schema: {
          tags,
          summary:
            'Set the friends; each new one gets one invitation and receives issues once they accept it',
          description:
            'Invited and subscribed addresses left out are removed; declined, unsubscribed and bouncing ones stay listed. ' +
            'An address that declined, unsubscribed, bounced or asked never to be invited is listed with that status and mailed nothing. ' +
            'Refused (422, nothing changed) when an address had 3 invitations in the last 24 hours, or when the account would mail more different people in 24 hours than MAIL_RECIPIENTS_PER_DAY.',
          security,
          params: idParams,
          body: subscribersPutSchema,
          response: { 200: subscribersUpdateResponseSchema },
        },
      },
      async (request) =>
        subscribers.setSubscribers(
          deps,
          authOf(request).userId,
          digestIdOf(request.params.id),
          request.body.subscribers,
        ),
    );

    app.delete(
      '/digests/:id/subscribers/:email',
      {
        preHandler: deps.authenticate,
        schema: {
          tags,
          summary: 'Remove one subscriber (by e-mail)',
          security,
          params: idParams.extend({ email: z.string().max(320) }),
          response: { 200: subscribersUpdateResponseSchema },
        },
      },
      async (request) =>
        subscribers.removeSubscriber(
          deps,
          authOf(request).userId,
          digestIdOf(request.params.id),
          request.params.email,
        ),
    );

    // Public: the links of the invitation and of every digest e-mail. A GET never changes anything (mail
    // scanners follow links); the POSTs do, from the pages' buttons or a mail client's one-click button.
    await app.register(async (plugin) => {
      const scope = plugin.withTypeProvider<ZodTypeProvider>();
      // RFC 8058 posts `List-Unsubscribe=One-Click` as a form; the page may post JSON or nothing. The
      // request itself is the action, so any small body is accepted and ignored.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
        done(null),
      );

      scope.get(
        '/subscriptions/:token',
        {
          config: { rateLimit: SUBSCRIBERS_RATE_LIMITS.tokenPerIp },
          schema: {
            tags,
            summary: 'What an invitation or unsubscribe link stands for (reading it changes nothing)',
            params: tokenParams,
            response: { 200: subscriptionResponseSchema },
          },
        },
        async (request) => ({ subscription: await subscribers.getSubscription(deps, request.params.token) }),
      );

      scope.post(
        '/subscriptions/:token/unsubscribe',
        {
          config: { rateLimit: SUBSCRIBERS_RATE_LIMITS.tokenPerIp },
          schema: {
            tags,
            summary: 'Unsubscribe (RFC 8058 one-click POST or the confirmation page); idempotent',
            params: tokenParams,
            response: { 200: unsubscribeResponseSchema },
          },
        },
        async (request) => subscribers.unsubscribe(deps, request.params.token),
      );

      for (const { path, summary, answer } of ANSWERS) {
        scope.post(
          `/subscriptions/:token/${path}`,
          {
            config: { rateLimit: SUBSCRIBERS_RATE_LIMITS.tokenPerIp },
            schema: {
              tags,
              summary,
              params: tokenParams,
              response: { 200: unsubscribeResponseSchema },
            },
          },
          async (request) => answer(deps, request.params.token),
        );
      }
    });
  };
}
