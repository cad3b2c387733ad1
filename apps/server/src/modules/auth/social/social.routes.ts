import {
  SOCIAL_PROVIDERS,
  type SocialProvider,
  socialProvidersResponseSchema,
  socialTicketBodySchema,
  socialTicketResponseSchema,
} from '@digest/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { presentUser } from '#server/modules/users/users.presenter';
import {
  flowFailureOf,
  oauthCallbackQuerySchema,
  readCookie,
  stateCookie,
  stateCookieOf,
} from '../oauth-browser';
import { PROVIDER_LABELS, SocialSignInError, socialErrors, summariseError } from './social.errors';
import {
  beginSocialSignIn,
  callbackPath,
  completeSocialSignIn,
  OAUTH_STATE_TTL_MS,
  redeemSocialTicket,
  SIGN_IN_MODES,
  type SignInMode,
  type SocialDeps,
} from './social.usecases';

export const SOCIAL_RATE_LIMITS = {
  /** Starting writes a state row and, for Google, may read its discovery document. */
  startPerIp: { max: 30, timeWindow: '5 minutes' },
  /** Each callback makes calls to the provider. */
  callbackPerIp: { max: 30, timeWindow: '5 minutes' },
  /** Tickets are 256-bit random values; the limit keeps guessing pointless and cheap to refuse. */
  ticketPerIp: { max: 30, timeWindow: '5 minutes' },
};

/**
 * Binds a flow to the browser that started it: only that browser carries the state back. Over https it is
 * named `__Secure-digest_oauth_state` (stateCookieOf).
 */
export const STATE_COOKIE = 'digest_oauth_state';

export interface SocialRoutesDeps extends SocialDeps {
  mailDomain: string;
}

export function socialRoutes(deps: SocialRoutesDeps): FastifyPluginAsyncZod {
  const cookie = stateCookieOf(STATE_COOKIE, deps.appUrl);
  const signInStateCookie = (
    mode: SignInMode,
    provider: SocialProvider,
    value: string,
    maxAgeSeconds: number,
  ) => stateCookie({ ...cookie, path: callbackPath(mode, provider), value, maxAgeSeconds });

  // encodeURIComponent (%20, not +): the web app may read it with URLSearchParams or decodeURIComponent.
  const withQuery = (path: string, query: Record<string, string>) =>
    `${deps.appUrl}${path}?${Object.entries(query)
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join('&')}`;

  /** Any failure of a browser-facing step ends on a page of the web app that shows a readable message. */
  const failWith =
    (provider: SocialProvider, destination: (message: string) => string) =>
    (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const failure = flowFailureOf(error, {
        isOwn: (candidate) => candidate instanceof SocialSignInError,
        tooManyAttempts: socialErrors.tooManyAttempts,
        failed: (reason) => socialErrors.failed(provider, reason),
        unexpected: (unexpected) =>
          request.log.error({ failure: summariseError(unexpected) }, 'social sign-in failed'),
      });
      if (failure.reason !== 'internal_error') {
        request.log.warn(
          { reason: failure.reason, cause: summariseError(failure.detail) },
          'social sign-in refused',
        );
      }
      return reply.header('cache-control', 'no-store').redirect(destination(failure.message), 302);
    };

  return async (app) => {
    app.get(
      '/auth/providers',
      {
        schema: {
          tags: ['auth'],
          summary: 'Which social sign-in providers this server has credentials for',
          response: { 200: socialProvidersResponseSchema },
        },
      },
      async () => ({
        providers: SOCIAL_PROVIDERS.map((provider) => ({
          provider,
          configured: deps.providers[provider].configured,
        })),
      }),
    );

    app.post(
      '/auth/social/ticket',
      {
        config: { rateLimit: SOCIAL_RATE_LIMITS.ticketPerIp },
        schema: {
          tags: ['auth'],
          summary: 'Exchange the ticket of a finished social sign-in for a session (single use, 2 minutes)',
          body: socialTicketBodySchema,
          response: { 200: socialTicketResponseSchema },
        },
      },
      async (request) => {
        const result = await redeemSocialTicket(deps, request.body.ticket);
        return {
          token: result.token,
          user: presentUser(result.user, { mailDomain: deps.mailDomain }),
          isNewUser: result.isNewUser,
        };
      },
    );

    // Browser navigations: every outcome is a redirect, never a JSON error page. Each pair of mode and
    // provider gets its own context, so its error handler knows where to send the browser.
    for (const mode of SIGN_IN_MODES) {
      for (const provider of SOCIAL_PROVIDERS) {
        const label = PROVIDER_LABELS[provider];

        await app.register(async (start) => {
          start.setErrorHandler(failWith(provider, (error) => withQuery('/logIn', { error })));
          start.get(
            `/auth/${mode}/${provider}`,
            {
              config: { rateLimit: SOCIAL_RATE_LIMITS.startPerIp },
              schema: {
                tags: ['auth'],
                summary: `Start ${mode === 'signin' ? 'signing in' : 'signing up'} with ${label} (redirects)`,
              },
            },
            async (_request, reply) => {
              const { url, state } = await beginSocialSignIn(deps, provider, mode);
              return reply
                .header('set-cookie', signInStateCookie(mode, provider, state, OAUTH_STATE_TTL_MS / 1000))
                .header('cache-control', 'no-store')
                .redirect(url, 302);
            },
          );
        });

        await app.register(async (callback) => {
          const appCallback = `/auth/${provider}/callback`;
          callback.setErrorHandler(failWith(provider, (error) => withQuery(appCallback, { error, mode })));
          callback.get(
            callbackPath(mode, provider).replace(/^\/api/, ''),
            {
              config: { rateLimit: SOCIAL_RATE_LIMITS.callbackPerIp },
              schema: {
                tags: ['auth'],
                summary: `Where ${label} sends the browser back (redirects to the web app with a ticket)`,
                querystring: oauthCallbackQuerySchema,
              },
            },
            async (request, reply) => {
              const browserState = readCookie(request, cookie.name);
              // Whatever the outcome, the state is spent: the browser forgets it.
              reply.header('set-cookie', signInStateCookie(mode, provider, '', 0));
              const { ticket } = await completeSocialSignIn(deps, {
                provider,
                mode,
                parameters: new URL(request.url, 'http://callback').searchParams,
                browserState,
              });
              return reply
                .header('cache-control', 'no-store')
                .redirect(withQuery(appCallback, { ticket, mode }), 302);
            },
          );
        });
      }
    }
  };
}
