import {
  SOCIAL_PROVIDERS,
  type SocialProvider,
  socialProvidersResponseSchema,
  socialTicketBodySchema,
  socialTicketResponseSchema,
} from '@digest/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Authenticate } from '#server/platform/http/auth';
import {
  flowFailureOf,
  oauthCallbackQuerySchema,
  readCookie,
  stateCookie,
  stateCookieOf,
} from '../oauth-browser';
import { requireAppRequest, sendSession } from '../session-cookie';
import { PROVIDER_LABELS, SocialSignInError, socialErrors, summariseError } from './social.errors';
import {
  beginSocialSignIn,
  callbackPath,
  completeSocialSignIn,
  OAUTH_STATE_TTL_MS,
  redeemSocialTicket,
  SIGN_IN_MODES,
  type SignInMode,
  SOCIAL_TICKET_TTL_MS,
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

/**
 * Binds a ticket to the browser that started the flow: set when the flow starts, read only by the ticket
 * exchange (its path), and needed there. Over https it is named `__Secure-digest_social_binding`.
 */
export const BINDING_COOKIE = 'digest_social_binding';
export const TICKET_PATH = '/api/auth/social/ticket';

export interface SocialRoutesDeps extends SocialDeps {
  mailDomain: string;
  authenticate: Authenticate;
}

export function socialRoutes(deps: SocialRoutesDeps): FastifyPluginAsyncZod {
  const cookie = stateCookieOf(STATE_COOKIE, deps.appUrl);
  const signInStateCookie = (
    mode: SignInMode,
    provider: SocialProvider,
    value: string,
    maxAgeSeconds: number,
  ) => stateCookie({ ...cookie, path: callbackPath(mode, provider), value, maxAgeSeconds });

  const binding = stateCookieOf(BINDING_COOKIE, deps.appUrl);
  const bindingCookie = (value: string, maxAgeSeconds: number) =>
    stateCookie({ ...binding, path: TICKET_PATH, value, maxAgeSeconds, sameSite: 'Strict' });

  /** The user the app is signed in as, if it sent a still valid access token; the exchange may not replace it. */
  const signedInUserOf = async (request: FastifyRequest) => {
    if (!request.headers.authorization) return undefined;
    try {
      await deps.authenticate(request);
      return request.auth?.userId;
    } catch {
      return undefined;
    }
  };

  // encodeURIComponent (%20, not +): the web app may read it with URLSearchParams or decodeURIComponent.
  const withQuery = (path: string, query: Record<string, string>) =>
    `${deps.appUrl}${path}?${Object.entries(query)
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join('&')}`;

  /**
   * Any failure of a browser-facing step ends on a page of the web app with the failure's code, which the app
   * turns into a readable message (never a text from the address).
   */
  const failWith =
    (provider: SocialProvider, destination: (code: string) => string) =>
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
      return reply.header('cache-control', 'no-store').redirect(destination(failure.code), 302);
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
        preHandler: requireAppRequest(deps.appUrl),
        schema: {
          tags: ['auth'],
          summary: 'Exchange the ticket of a finished social sign-in for a session (single use, 2 minutes)',
          body: socialTicketBodySchema,
          response: { 200: socialTicketResponseSchema },
        },
      },
      async (request, reply) => {
        const result = await redeemSocialTicket(deps, {
          ticket: request.body.ticket,
          browserBinding: readCookie(request, binding.name),
          signedInUserId: await signedInUserOf(request),
        });
        // The binding has done its work; the session cookie is set by sendSession.
        reply.header('set-cookie', bindingCookie('', 0));
        return sendSession(reply, deps, result, { isNewUser: result.isNewUser });
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
              const { url, state, browserBinding } = await beginSocialSignIn(deps, provider, mode);
              return reply
                .header('set-cookie', signInStateCookie(mode, provider, state, OAUTH_STATE_TTL_MS / 1000))
                .header(
                  'set-cookie',
                  bindingCookie(browserBinding, (OAUTH_STATE_TTL_MS + SOCIAL_TICKET_TTL_MS) / 1000),
                )
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
