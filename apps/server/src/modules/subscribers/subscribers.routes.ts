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
const tokenParams = z.object({ token: z.string().max(200).describe('Unsubscribe token from the e-mail') });

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
          summary: 'Set the active subscribers; each new one gets a notice e-mail',
          description:
            'Addresses left out stop receiving the digest; unsubscribed addresses left out stay listed as unsubscribed. ' +
            'Re-adding an address that unsubscribed is refused (422) while its last notice is less than 7 days old.',
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

    // Public: the links of the notice and of every digest e-mail. A GET never unsubscribes (mail scanners
    // follow links); the POST does, from the confirmation page or a mail client's one-click button.
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
            summary: 'What an unsubscribe link stands for (reading it changes nothing)',
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
    });
  };
}
