/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import {
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  expect,
  type Page,
  type Request,
  type TestInfo,
  test,
} from '@playwright/test';
import { verificationLink } from './mailbox';

export const PASSWORD = 'Passw0rd!';

/** A fresh address for every test, so the specs never share an account. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** Letters and digits only, like the onboarding asks. */
export function uniqueUsername(label: string): string {
  return `${label}${randomUUID().replaceAll('-', '').slice(0, 10)}`;
}

/** A private address for one API client, so per-address rate limits do not add up across specs. */
export function testClientAddress(): string {
  const [a = 0, b = 0, c = 0] =
    randomUUID()
      .replaceAll('-', '')
      .slice(0, 6)
      .match(/../g)
      ?.map((hex) => Number.parseInt(hex, 16)) ?? [];
  return `10.${a}.${b}.${Math.max(c, 1)}`;
}

/**
 * A session made through the API: the access token its answer carried, and the value of the HttpOnly refresh
 * cookie it set (docs/design.md §5: the refresh token is never in a body, nor readable by the page).
 */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** The refresh cookie, scoped to the refresh path (plain http in the specs, so without `__Secure-`). */
export const REFRESH_COOKIE = 'digest_refresh';
const REFRESH_PATH = '/api/auth/refresh';
/** The header the web app sends on the calls a cookie authenticates. */
export const SESSION_HEADER = { 'x-digest-session': '1' };

/** The value a response gave the refresh cookie. */
export function refreshCookieOf(response: APIResponse): string {
  const line = response
    .headersArray()
    .find(({ name, value }) => name.toLowerCase() === 'set-cookie' && value.startsWith(`${REFRESH_COOKIE}=`));
  const value = line?.value.slice(REFRESH_COOKIE.length + 1).split(';')[0];
  if (!value) throw new Error('the response set no refresh cookie');
  return value;
}

export interface CreatedUser {
  email: string;
  password: string;
  fullName: string | null;
  username: string | null;
  token: TokenPair;
}

/** Signs a user up through the API and, unless `complete: false`, finishes the onboarding too. */
export async function createUser(
  request: APIRequestContext,
  {
    label = 'user',
    complete = true,
    fullName = 'Test Reader',
    timezone = 'UTC' as string | null,
  }: { label?: string; complete?: boolean; fullName?: string; timezone?: string | null } = {},
): Promise<CreatedUser> {
  const email = uniqueEmail(label);
  const signup = await request.post('/api/auth/signup/email', {
    data: { email, password: PASSWORD, confirmed: true },
    // Sign-ups are limited per client address (20 an hour); the suite makes more than that, so each
    // API sign-up comes from its own address (the server trusts X-Forwarded-For behind a proxy).
    headers: { 'x-forwarded-for': testClientAddress() },
  });
  expect(signup.status(), await signup.text()).toBe(202);
  // No session until the address is verified: follow the link of the mail, as the web page does.
  const token = await verifyAddress(request, email);
  if (!complete) return { email, password: PASSWORD, fullName: null, username: null, token };
  const username = uniqueUsername(label);
  const patch = await request.patch('/api/users/me', {
    headers: { authorization: `Bearer ${token.accessToken}` },
    // With a time zone, the app has no default zone to save (docs/product.md §4) and sends nothing unasked.
    data: { fullName, username, ...(timezone ? { timezone: { timezone, locale: 'en-US', offset: 0 } } : {}) },
  });
  expect(patch.status(), await patch.text()).toBe(200);
  return { email, password: PASSWORD, fullName, username, token };
}

/** Follows the sign-up's verification link mailed to `email` through the API: the session it starts. */
export async function verifyAddress(request: APIRequestContext, email: string): Promise<TokenPair> {
  const link = new URL(await verificationLink(email), 'http://app.invalid');
  const verified = await request.post('/api/auth/email/verify', {
    data: { token: link.searchParams.get('token') },
    headers: { 'x-forwarded-for': testClientAddress() },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  return {
    accessToken: ((await verified.json()) as { token: { accessToken: string } }).token.accessToken,
    refreshToken: refreshCookieOf(verified),
  };
}

/** Whose session each browser context holds, so opening the same user again keeps the rotated cookie. */
const signedInAs = new WeakMap<BrowserContext, TokenPair>();

async function refreshCookieIn(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === REFRESH_COOKIE && cookie.value !== '');
}

/**
 * Gives the browser the session's refresh cookie, as a sign-in would have, and opens `path`: the app gets its
 * access token from it on load. Each refresh rotates the cookie, so a context already holding this session
 * keeps its own (newer) cookie, and one that held another session hands that session's newest cookie back.
 */
export async function openSignedIn(page: Page, token: TokenPair, path = '/digests'): Promise<void> {
  const context = page.context();
  const held = await refreshCookieIn(context);
  const previous = signedInAs.get(context);
  if (!held || previous !== token) {
    if (previous && held) previous.refreshToken = held.value;
    const { hostname } = new URL(String(test.info().project.use.baseURL));
    await context.addCookies([
      {
        name: REFRESH_COOKIE,
        value: token.refreshToken,
        domain: hostname,
        path: REFRESH_PATH,
        httpOnly: true,
        sameSite: 'Strict',
      },
    ]);
    signedInAs.set(context, token);
  }
  await page.goto(path);
}

/**
 * The session the browser holds, asked of the server with the browser's own refresh cookie (which the page
 * cannot read): a fresh access token, or null when it holds none (logged out, revoked, deleted).
 */
export async function sessionOf(page: Page): Promise<{ accessToken: string } | null> {
  const response = await page.request.post(REFRESH_PATH, { headers: SESSION_HEADER });
  if (!response.ok()) return null;
  return ((await response.json()) as { token: { accessToken: string } }).token;
}

/**
 * `POST /api/auth/refresh` with this refresh token in the cookie, from outside any browser (a stolen copy, a
 * spent one): the status it gets.
 */
export async function refreshWithCookie(refreshToken: string): Promise<number> {
  const response = await fetch(new URL(REFRESH_PATH, String(test.info().project.use.baseURL)), {
    method: 'POST',
    headers: { ...SESSION_HEADER, cookie: `${REFRESH_COOKIE}=${refreshToken}` },
  });
  return response.status;
}

/** Fills and sends the Log in form. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/logIn');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Signs the browser out behind the app's back: its cookies (the refresh cookie too) and its stored state go. */
export async function signOutHere(page: Page): Promise<void> {
  await page.context().clearCookies();
  signedInAs.delete(page.context());
  await page.evaluate(() => localStorage.clear());
}

/** `GET /api/users/me` as the browser's session. */
export async function fetchMe(page: Page, request: APIRequestContext): Promise<Record<string, unknown>> {
  const token = await sessionOf(page);
  expect(token).not.toBeNull();
  const response = await request.get('/api/users/me', {
    headers: { authorization: `Bearer ${token?.accessToken}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { user: Record<string, unknown> }).user;
}

/** Records every /api/ request the page makes (method, path and body), to prove a form sent nothing. */
export function recordApiCalls(page: Page): { method: string; path: string; body: string | null }[] {
  const calls: { method: string; path: string; body: string | null }[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) {
      calls.push({ method: request.method(), path: url.pathname, body: request.postData() });
    }
  });
  return calls;
}

export const WIDTHS = [1280, 768, 375] as const;

/**
 * A screenshot at each width (docs/product.md §2 layouts), returning to the first width: the full page, or only the
 * viewport when a dialog covers it (a fixed overlay covers only the viewport of a full-page capture).
 */
export async function screenshots(
  page: Page,
  testInfo: TestInfo,
  name: string,
  {
    fullPage = true,
    atWidth,
    widths = WIDTHS,
  }: { fullPage?: boolean; atWidth?: (width: number) => Promise<void>; widths?: readonly number[] } = {},
): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    // Let layout-dependent components (e.g. the crop box) settle.
    await page.waitForTimeout(150);
    await atWidth?.(width);
    // A sticky header would be drawn where the page is scrolled to in a full-page capture.
    if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage });
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
}

/** Console messages about the Content Security Policy (the server allows no inline style or script). */
export function recordCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
