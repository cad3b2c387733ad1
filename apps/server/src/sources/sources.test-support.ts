/**
 * Test support for the connectors: the fake providers started for a test file, the `SourcesDeps` a
 * connector is given, wired to them over real HTTP, with a small in-memory `AccountTokens` standing in
 * for modules/accounts (an interface boundary, not one of our modules' logic), and the failures every
 * provider read must report (the real connect flow for API tests is in modules/accounts/test-support.ts).
 * Not a test file itself.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type Clock, systemClock } from '#server/platform/clock';
import { createSafeFetch } from '#server/platform/safe-fetch/safe-fetch';
import { providerConfigOf } from '#server-test/test-config';
import {
  type FakeFailure,
  type FakeProvider,
  type FakeProviders,
  startFakeProviders,
} from '#test/fakes/fake-providers';
import { fakeScopePart } from '#test/fakes/providers/oauth';
import type {
  AccountProvider,
  AccountTokens,
  ConnectedAccountSummary,
  NewsletterItems,
  SourcesDeps,
} from './connector';
import { createMemoryContentCache, createProviderHttp } from './create-provider-http';
import { SourceError, type SourceErrorCode } from './source-error';
import { X_ACCOUNT_SCOPES } from './twitter/twitter.refusals';

/**
 * Starts `providers` on one fake server for the test file and closes it after; after each test the request
 * counts start again from zero and a failure switched on under `prefix` is cleared.
 */
export function fakeProvidersForFile(providers: FakeProvider[], prefix?: string): FakeProviders {
  let started: FakeProviders | undefined;
  beforeAll(async () => {
    started = await startFakeProviders({ providers });
  });
  afterAll(() => started?.close());
  afterEach(() => {
    if (prefix) started?.setFailure(prefix, undefined);
    started?.resetHits();
  });
  const fakes = () => {
    if (!started) throw new Error('The fake providers start in beforeAll: use them inside a test.');
    return started;
  };
  return {
    get origin() {
      return fakes().origin;
    },
    get env() {
      return fakes().env;
    },
    get aliasOrigins() {
      return fakes().aliasOrigins;
    },
    hits: (hitPrefix, path) => fakes().hits(hitPrefix, path),
    resetHits: () => fakes().resetHits(),
    setLatency: (ms) => fakes().setLatency(ms),
    setFailure: (failurePrefix, failure) => fakes().setFailure(failurePrefix, failure),
    close: () => fakes().close(),
  };
}

/** The fakes' variables with `overrides` applied; an override of undefined removes the variable. */
export function fakeEnv(
  fakes: { env: Record<string, string> },
  overrides: Record<string, string | undefined> = {},
): { env: Record<string, string> } {
  const env = Object.entries({ ...fakes.env, ...overrides }).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return { env: Object.fromEntries(env) };
}

/** The SourceError `promise` fails with; the test fails if it resolves or fails with anything else. */
export async function sourceFailure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

/** Runs `body` with every request under `prefix` failing as `failure`, and clears it whatever happens. */
export async function withProviderFailure<T>(
  fakes: FakeProviders,
  prefix: string,
  failure: FakeFailure,
  body: () => Promise<T>,
): Promise<T> {
  fakes.setFailure(prefix, failure);
  try {
    return await body();
  } finally {
    fakes.setFailure(prefix, undefined);
  }
}

/** How long a read waits for a hanging provider in tests (production waits 10 s). */
export const HANG_TIMEOUT_MS = 300;

export interface ProviderFailureCase {
  /** The rule, as the test names it. */
  rule: string;
  /** How the fake provider answers. */
  failure: FakeFailure;
  /** What the read must fail with. */
  error: { kind: SourceErrorCode; message: string; statusCode: number; retryAfterSeconds?: number };
}

/**
 * The provider failures every read over HTTP must turn into a SourceError saying what failed, `provider`
 * being its name in messages: a 429 (when to retry, from Retry-After), a 500, no answer at all; and where
 * asked, a 404, an answer that is not JSON, and one in another shape (`shape`: a body the provider would
 * never send).
 */
export function providerFailureCases(
  provider: string,
  also: {
    notFound?: boolean;
    notJson?: boolean;
    shape?: string | object;
    /** The provider's own words for these kinds, where its table of answers has some (account-refusal.ts). */
    messages?: Partial<Record<'rate_limited' | 'upstream', string>>;
  } = {},
): ProviderFailureCase[] {
  const cases: ProviderFailureCase[] = [
    {
      rule: 'says when to retry after a 429, from Retry-After',
      failure: { status: 429, headers: { 'retry-after': '30' } },
      error: {
        kind: 'rate_limited',
        statusCode: 429,
        retryAfterSeconds: 30,
        message: also.messages?.rate_limited ?? `${provider} answered 429: rate-limited, retry in 30 s`,
      },
    },
    {
      rule: 'reports a 500 as an upstream failure',
      failure: { status: 500, body: 'Internal Server Error' },
      error: {
        kind: 'upstream',
        statusCode: 502,
        message: also.messages?.upstream ?? `${provider} answered 500`,
      },
    },
    {
      // Said like a refused connection: the two must not be told apart (create-provider-http.ts).
      rule: 'gives up on a provider that never answers, saying only that it could not be reached',
      failure: 'hang',
      error: { kind: 'unreachable', statusCode: 502, message: `${provider} could not be reached` },
    },
  ];
  if (also.notFound) {
    cases.push({
      rule: 'reports a 404 as not found',
      failure: { status: 404, body: { message: 'Not Found' } },
      error: { kind: 'not_found', statusCode: 404, message: `${provider} answered 404: not found` },
    });
  }
  if (also.notJson) {
    cases.push({
      rule: 'refuses an answer that is not JSON',
      failure: { status: 200, body: '<html>maintenance</html>' },
      error: {
        kind: 'invalid_response',
        statusCode: 502,
        message: `${provider} answered with something that is not JSON`,
      },
    });
  }
  if (also.shape) {
    cases.push({
      rule: 'refuses an answer in an unexpected shape',
      failure: { status: 200, body: also.shape },
      error: {
        kind: 'invalid_response',
        statusCode: 502,
        message: `${provider} answered in an unexpected shape`,
      },
    });
  }
  return cases;
}

/**
 * One test per case of `providerFailureCases`: with the provider under `prefix` failing that way, `read`
 * (given a short timeout for the hang) must fail with the case's SourceError. Call it inside the file's `describe` of failures.
 */
export function itReportsProviderFailures(options: {
  fakes: FakeProviders;
  prefix: string;
  /** The provider's name in messages, and the cases beyond the three every provider has. */
  provider: string;
  also?: Parameters<typeof providerFailureCases>[1];
  read: (timeoutMs: number | undefined) => Promise<unknown>;
}) {
  for (const { rule, failure, error } of providerFailureCases(options.provider, options.also)) {
    it(`${rule}: ${error.kind}, "${error.message}"`, async () => {
      const caught = await withProviderFailure(options.fakes, options.prefix, failure, () =>
        sourceFailure(options.read(failure === 'hang' ? HANG_TIMEOUT_MS : undefined)),
      );
      expect(caught).toMatchObject(error);
    });
  }
}

/** What every provider's table says for its own failure (`providerDown`, account-refusal.ts). */
export const providerDownMessage = (provider: string, status: number) =>
  `${provider} is not answering right now (it answered ${status}): try again later`;

/**
 * One test per 5xx a provider answers while it is down (500, 502, 503, 504), each through real HTTP to the
 * fake answering it with `body`: `read` must say the provider is not answering — never that something
 * was not found, nor that an account must be reconnected.
 */
export function itSaysProviderDown(options: {
  fakes: FakeProviders;
  prefix: string;
  provider: string;
  /** What the provider answers while down (its error page or problem body). */
  body: string | object;
  read: () => Promise<unknown>;
}) {
  for (const status of [500, 502, 503, 504]) {
    it(`says ${options.provider} is not answering when it answers ${status}`, async () => {
      const caught = await withProviderFailure(
        options.fakes,
        options.prefix,
        { status, body: options.body },
        () => sourceFailure(options.read()),
      );
      expect(caught).toMatchObject({
        kind: 'upstream',
        statusCode: 502,
        providerStatus: status,
        message: providerDownMessage(options.provider, status),
      });
    });
  }
}

export interface TestAccount {
  provider: AccountProvider;
  accessToken: string;
  providerAccountId?: string;
  email?: string;
  username?: string;
  /** What the provider granted; unknown (null) by default. */
  scopes?: string[];
}

/** The accounts of one user, by tokenId; any other user or tokenId is not connected. */
export function testAccountTokens(userId: string, accounts: Record<string, TestAccount>): AccountTokens {
  const summaryOf = (tokenId: string, account: TestAccount): ConnectedAccountSummary => ({
    tokenId,
    tokenType: account.provider,
    providerAccountId: account.providerAccountId ?? tokenId,
    email: account.email ?? null,
    username: account.username ?? null,
    profilePicture: null,
    scopes: account.scopes ?? null,
  });
  return {
    async accessToken(owner, tokenId, provider) {
      const account = accounts[tokenId];
      if (owner !== userId || !account || account.provider !== provider) {
        throw new SourceError('not_connected', 'This source is not connected yet.');
      }
      return { accessToken: account.accessToken, account: summaryOf(tokenId, account) };
    },
    async list(owner, provider) {
      if (owner !== userId) return [];
      return Object.entries(accounts)
        .filter(([, account]) => provider === undefined || account.provider === provider)
        .map(([tokenId, account]) => summaryOf(tokenId, account));
    },
  };
}

/**
 * An access token as the fake OAuth servers issue it, valid for an hour of real time; an X one carries
 * `scopes` (by default every scope the app asks for), as the fake X API checks them.
 */
export const fakeAccessToken = (
  provider: 'google' | 'twitter' | 'stripe',
  accountId: string,
  scopes: readonly string[] = X_ACCOUNT_SCOPES,
) =>
  `fake-${provider}-access.${accountId}.${Math.floor(Date.now() / 1000) + 3600}${
    provider === 'twitter' ? `.${fakeScopePart(scopes.join(' '))}` : ''
  }`;

/** A mailbox with no newsletters (the real one is read in modules/newsletters' tests). */
const NO_NEWSLETTERS: NewsletterItems = { latest: async () => [] };

/** `accounts` defaults to none connected, for the sources that need no account. */
export function connectorDeps(
  fakes: { env: Record<string, string> },
  options: { accounts?: AccountTokens; clock?: Clock; timeoutMs?: number } = {},
): SourcesDeps {
  const safeFetch = createSafeFetch({ allowPrivateHosts: ['127.0.0.1'] });
  return {
    http: createProviderHttp({
      // A hanging provider must fail the test quickly, not after the production 10 s.
      safeFetch: options.timeoutMs
        ? (request) => safeFetch({ ...request, timeoutMs: options.timeoutMs })
        : safeFetch,
      cache: createMemoryContentCache(),
    }),
    providers: providerConfigOf(fakes.env),
    accounts: options.accounts ?? testAccountTokens('nobody', {}),
    newsletters: NO_NEWSLETTERS,
    clock: options.clock ?? systemClock,
    appUrl: 'http://app.test',
  };
}
