import {
  ACCOUNT_PROVIDER_LABELS,
  ACCOUNT_PROVIDERS,
  type AccountProvider,
  connectableProvidersResponseSchema,
  connectedAccountsResponseSchema,
  connectPathNameOf,
  connectStartBodySchema,
  connectStartResponseSchema,
} from '@digest/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  flowFailureOf,
  oauthCallbackQuerySchema,
  readCookie,
  stateCookie,
  stateCookieOf,
} from '#server/modules/auth/oauth-browser';
import { summariseError } from '#server/modules/auth/social/social.errors';
import { type Authenticate, authOf } from '#server/platform/http/auth';
import { AccountConnectError, accountErrors } from './accounts.errors';
import {
  type AccountsDeps,
  CONNECT_STATE_TTL_MS,
  completeConnect,
  connectPath,
  DEFAULT_RETURN_PATH,
  disconnectAccount,
  listConnectedAccounts,
  requestConnect,
  startConnect,
} from './accounts.usecases';

export const ACCOUNT_RATE_LIMITS = {
  /** Each request writes a state row. */
  requestPerIp: { max: 30, timeWindow: '5 minutes' },
  /** The start may read Google's discovery document. */
  startPerIp: { max: 30, timeWindow: '5 minutes' },
  /** Each callback makes calls to the provider. */
  callbackPerIp: { max: 30, timeWindow: '5 minutes' },
};

/**
 * Binds a connect flow to the browser of the user who asked for it; over https it is named
 * `__Secure-digest_connect_state` (stateCookieOf).
 */
export const CONNECT_STATE_COOKIE = 'digest_connect_state';

export interface AccountsRoutesDeps extends AccountsDeps {
  authenticate: Authenticate;
}

const callbackQuerySchema = oauthCallbackQuerySchema.extend({ scope: z.string().max(4096).optional() });

export function accountsRoutes(deps: AccountsRoutesDeps): FastifyPluginAsyncZod {
  const cookie = stateCookieOf(CONNECT_STATE_COOKIE, deps.appUrl);
  // Its path covers the start address and the callback under it, and nothing else.
  const connectStateCookie = (provider: AccountProvider, value: string, maxAgeSeconds: number) =>
    stateCookie({ ...cookie, path: connectPath(provider), value, maxAgeSeconds });

  /**
   * A page of the web app, with the outcome in its query: `connected=google`, or `error=<code>&provider=google`
   * (a code the app turns into its own text, never a text).
   */
  const appPage = (path: string, query: Record<string, string>) => {
    const url = new URL(path, deps.appUrl);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.href;
  };

  /** Any failure of a browser-facing step ends on a page of the web app with the failure's code. */
  const failWith =
    (provider: AccountProvider) => (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const failure = flowFailureOf(error, {
        isOwn: (candidate) => candidate instanceof AccountConnectError,
        tooManyAttempts: accountErrors.tooManyAttempts,
        failed: (reason) => accountErrors.failed(provider, reason),
        unexpected: (unexpected) =>
          request.log.error({ failure: summariseError(unexpected) }, 'connecting an account failed'),
      });
      if (failure.reason !== 'internal_error') {
        request.log.warn(
          { provider, reason: failure.reason, cause: summariseError(failure.detail) },
          'connecting an account refused',
        );
      }
      return reply.header('cache-control', 'no-store').redirect(
        appPage(failure.returnTo ?? DEFAULT_RETURN_PATH, {
          error: failure.code,
          provider: connectPathNameOf(provider),
        }),
        302,
      );
    };

  return async (app) => {
    app.get(
      '/data-sources/social-accounts/list',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'The connected accounts of the signed-in user (never their tokens)',
          security: [{ bearerAuth: [] }],
          response: { 200: connectedAccountsResponseSchema },
        },
      },
      async (request) => {
        const accounts = await listConnectedAccounts(deps, authOf(request).userId);
        return {
          accounts: accounts.map(({ tokenId, tokenType, email, username, profilePicture }) => ({
            tokenId,
            tokenType,
            email,
            username,
            profilePicture,
          })),
        };
      },
    );

    app.get(
      '/data-sources/social-accounts/providers',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Which accounts this server has credentials to connect',
          security: [{ bearerAuth: [] }],
          response: { 200: connectableProvidersResponseSchema },
        },
      },
      async () => ({
        providers: ACCOUNT_PROVIDERS.map((provider) => ({
          provider,
          configured: deps.providers[provider].configured,
        })),
      }),
    );

    app.post(
      '/data-sources/social-accounts/:id/logout',
      {
        preHandler: deps.authenticate,
        schema: {
          tags: ['data-sources'],
          summary: 'Log Out of a connected account: revoked at the provider and removed',
          description: 'Answers 204; an id that is not one of your accounts answers 404.',
          security: [{ bearerAuth: [] }],
          params: z.object({ id: z.string().max(100) }),
        },
      },
      async (request, reply) => {
        await disconnectAccount(deps, authOf(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );

    for (const provider of ACCOUNT_PROVIDERS) {
      const label = ACCOUNT_PROVIDER_LABELS[provider];
      const path = connectPath(provider).replace(/^\/api/, '');

      app.post(
        path,
        {
          preHandler: deps.authenticate,
          config: { rateLimit: ACCOUNT_RATE_LIMITS.requestPerIp },
          schema: {
            tags: ['auth'],
            summary: `Start connecting a ${label} account: answers the address to navigate to (sets a cookie)`,
            description: `503 when ${label} is not configured on this server.`,
            security: [{ bearerAuth: [] }],
            body: connectStartBodySchema,
            response: { 200: connectStartResponseSchema },
          },
        },
        async (request, reply) => {
          const { state, url } = await requestConnect(
            deps,
            authOf(request).userId,
            provider,
            request.body.returnTo,
          );
          reply
            .header('set-cookie', connectStateCookie(provider, state, CONNECT_STATE_TTL_MS / 1000))
            .header('cache-control', 'no-store');
          return { url };
        },
      );

      // Browser navigations: every outcome is a redirect, never a JSON error page.
      await app.register(async (browser) => {
        browser.setErrorHandler(failWith(provider));
        browser.get(
          path,
          {
            config: { rateLimit: ACCOUNT_RATE_LIMITS.startPerIp },
            schema: { tags: ['auth'], summary: `Go to ${label} to connect the account (redirects)` },
          },
          async (request, reply) => {
            const url = await startConnect(deps, provider, readCookie(request, cookie.name));
            return reply.header('cache-control', 'no-store').redirect(url, 302);
          },
        );
        browser.get(
          `${path}/callback`,
          {
            config: { rateLimit: ACCOUNT_RATE_LIMITS.callbackPerIp },
            schema: {
              tags: ['auth'],
              summary: `Where ${label} sends the browser back (redirects to the web app)`,
              querystring: callbackQuerySchema,
            },
          },
          async (request, reply) => {
            const browserState = readCookie(request, cookie.name);
            // Whatever the outcome, the state is spent: the browser forgets it.
            reply.header('set-cookie', connectStateCookie(provider, '', 0));
            const { returnTo } = await completeConnect(deps, {
              provider,
              parameters: new URL(request.url, 'http://callback').searchParams,
              browserState,
            });
            return reply
              .header('cache-control', 'no-store')
              .redirect(appPage(returnTo, { connected: connectPathNameOf(provider) }), 302);
          },
        );
      });
    }
  };
}
