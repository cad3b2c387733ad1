import { expect, type Page, test } from '@playwright/test';
import {
  createUser,
  fetchMe,
  logIn,
  openSignedIn,
  REFRESH_COOKIE,
  recordApiCalls,
  refreshWithCookie,
  sessionOf,
} from './support/accounts';

test.use({ timezoneId: 'Asia/Tokyo' });

test('signed-out visitors only reach the signed-out pages', async ({ page }) => {
  for (const path of [
    '/',
    '/digests',
    '/editProfile',
    '/createDigest',
    '/menu',
    '/no/such/page',
    '/recover-message',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/i);
  }
  const open: [string, RegExp][] = [
    ['/signup', /\/signup$/],
    ['/logIn', /\/logIn$/],
    ['/forgetPassword', /\/forgetPassword$/],
    ['/reset-password?recoveryToken=abc', /\/reset-password\?recoveryToken=abc$/],
  ];
  for (const [path, url] of open) {
    await page.goto(path);
    await expect(page, path).toHaveURL(url);
  }
});

test('signed-in redirects of docs/product.md §2', async ({ page, request }) => {
  const user = await createUser(request, { label: 'guards', fullName: 'Guard Person', timezone: null });
  await openSignedIn(page, user.token, '/');
  await expect(page).toHaveURL(/\/digests$/);
  // docs/product.md §4: a user without a time zone gets the browser's.
  await expect
    .poll(async () => ((await fetchMe(page, request)).timezone as { timezone: string } | null)?.timezone)
    .toBe('Asia/Tokyo');
  // With sources in the address, /login opens the builder, whose guided sequence takes them in and
  // leaves the address (docs/product.md §2).
  await page.goto('/logIn?sources=rss,reddit');
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(page.getByRole('complementary').getByText('Source 1 of 2')).toBeVisible();
  const cases: [string, RegExp][] = [
    ['/signup', /\/createDigest$/],
    ['/login', /\/digests$/],
    ['/forgetPassword', /\/digests$/],
    ['/somewhere/else', /\/profileView$/],
  ];
  for (const [path, target] of cases) {
    await page.goto(path);
    await expect(page, path).toHaveURL(target);
  }
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  // /menu is for phones; desktops go to /digests.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/menu');
  await expect(page).toHaveURL(/\/digests$/);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/menu');
  await expect(page.getByRole('navigation', { name: 'Menu' })).toBeVisible();
});

test('a profile without full name or username is sent to the onboarding on every path', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'incomplete', complete: false });
  for (const path of ['/digests', '/editProfile', '/newsletters', '/digestCreator', '/profileView']) {
    await openSignedIn(page, user.token, path);
    await expect(page, path).toHaveURL(/\/createDigest$/);
    await expect(page.getByRole('heading', { name: 'Welcome to Digest!' })).toBeVisible();
  }
  // The welcome layout has a way out.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/i);
  expect(await sessionOf(page)).toBeNull();
});

/** What a script of the page can read: storage and cookies. No token may be in it. */
const scriptReadable = (page: Page) =>
  page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );

test('the session lives in an HttpOnly cookie, the access token in memory: restored on load, a refused one refreshed once and retried, a reused one logs out', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'refresh', fullName: 'Fresh Person' });
  const calls = recordApiCalls(page);
  // The first /users/me is answered as if the access token had expired.
  let expired = false;
  await page.route('**/api/users/me', async (route) => {
    if (expired || route.request().method() !== 'GET') return route.continue();
    expired = true;
    return route.fulfill({
      status: 401,
      json: { code: 'TOKEN_EXPIRED', message: 'Your session has expired. Please log in again.' },
    });
  });
  await openSignedIn(page, user.token, '/digests');
  await expect(page.getByRole('heading', { level: 1, name: 'Fresh Person Digests' })).toBeVisible();
  // One refresh on load (with the cookie), one after the 401; the refused call was made again.
  expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(2);
  expect(calls.filter((call) => call.path === '/api/auth/refresh' && call.body !== null)).toEqual([]);
  expect(calls.filter((call) => call.method === 'GET' && call.path === '/api/users/me')).toHaveLength(2);

  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === REFRESH_COOKIE);
  expect(cookie).toMatchObject({
    path: '/api/auth/refresh',
    httpOnly: true,
    sameSite: 'Strict',
    secure: false,
  });
  expect(cookie?.value).not.toBe(user.token.refreshToken);
  const readable = await scriptReadable(page);
  expect(readable).not.toContain(cookie?.value);
  expect(readable).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);

  // The spent refresh token, presented again after the grace, revokes the session: the app logs out and
  // says why, and the rotated token of that session stops working too.
  await page.waitForTimeout(10_500);
  await page.context().clearCookies();
  await openSignedIn(page, user.token, '/digests');
  await expect(page).toHaveURL(/\/login$/i);
  await expect(page.getByText('Token revoked!', { exact: true })).toBeVisible();
  expect(await sessionOf(page)).toBeNull();
  expect(await refreshWithCookie(cookie?.value ?? '')).toBe(401);
});

test('two tabs that load and refresh at once take turns with the cookie, and both stay signed in', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'twotabs', fullName: 'Twin Tabs' });
  const context = page.context();
  // Taking turns means each refresh presents the token the one before it set; two at once would present
  // the same one. Read from the cookies sent, not from the timing of Playwright's events: those of two
  // tabs arrive on separate channels, and one tab's request could be reported before the other's answer.
  const presented: Promise<string | undefined>[] = [];
  const refreshes: number[] = [];
  context.on('request', (sent) => {
    if (!sent.url().endsWith('/api/auth/refresh')) return;
    presented.push(sent.headerValue('cookie').then((header) => refreshTokenIn(header)));
  });
  context.on('requestfinished', async (finished) => {
    if (!finished.url().endsWith('/api/auth/refresh')) return;
    refreshes.push((await finished.response())?.status() ?? 0);
  });
  const heading = (tab: Page) => tab.getByRole('heading', { level: 1, name: 'Twin Tabs Digests' });
  // The first page shows its heading before the rounds begin: a reload while its script is still starting
  // would leave its refresh unsent (a busy machine can take that long), and the count below would be short.
  await openSignedIn(page, user.token, '/digests');
  await expect(heading(page)).toBeVisible();
  const second = await context.newPage();
  for (let round = 0; round < 3; round++) {
    await Promise.all([page.reload(), second.goto('/digests')]);
    await expect(heading(page)).toBeVisible();
    await expect(heading(second)).toBeVisible();
  }
  // A refresh is counted once Playwright has its response, which may come a moment after the page shows.
  await expect.poll(() => refreshes.length).toBeGreaterThanOrEqual(7);
  expect(refreshes.every((status) => status === 200)).toBe(true);
  const tokens = await Promise.all(presented);
  expect(tokens.every((token) => token !== undefined)).toBe(true);
  expect(new Set(tokens).size).toBe(tokens.length);
  expect(await sessionOf(page)).not.toBeNull();
});

function refreshTokenIn(cookieHeader: string | null): string | undefined {
  const prefix = `${REFRESH_COOKIE}=`;
  return cookieHeader
    ?.split(';')
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(prefix))
    ?.slice(prefix.length);
}

test('signing in or out in one tab is followed by the others', async ({ page, request }) => {
  const user = await createUser(request, { label: 'follow', fullName: 'Follow Person' });
  const other = await page.context().newPage();
  await other.goto('/digests');
  await expect(other).toHaveURL(/\/login$/i);
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Follow Person Digests' })).toBeVisible();
  // The other tab learns of the sign-in and gets its own access token with the shared cookie.
  await expect(other).toHaveURL(/\/digests$/);
  await expect(other.getByRole('heading', { level: 1, name: 'Follow Person Digests' })).toBeVisible();

  await page.goto('/editProfile');
  await page.getByRole('complementary').getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/i);
  await expect(other).toHaveURL(/\/login$/i);
});

test('log out from the settings area revokes the session on the server and clears the cookie', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'logout' });
  await openSignedIn(page, user.token, '/editProfile');
  await expect(page.getByRole('complementary').getByRole('button', { name: 'Log Out' })).toBeVisible();
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === REFRESH_COOKIE);
  await page.getByRole('complementary').getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/i);
  expect((await page.context().cookies()).filter((candidate) => candidate.name === REFRESH_COOKIE)).toEqual(
    [],
  );
  expect(await refreshWithCookie(cookie?.value ?? '')).toBe(401);
});

test('social providers without credentials say so; a failed callback returns to the form with the reason', async ({
  page,
}) => {
  // scripts/e2e.mjs configures Google and X/Twitter (the fake providers), not Facebook.
  await page.goto('/logIn');
  await expect(
    page.getByRole('button', { name: 'Facebook sign-in is not configured on this server' }),
  ).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue with Twitter' })).toBeVisible();
  await page.goto('/signup');
  await expect(
    page.getByRole('button', { name: 'Facebook sign-up is not configured on this server' }),
  ).toBeDisabled();

  // Only the app's own texts, for known codes: words put in the address are never shown.
  const hostile = 'Your account is locked. Call +1 555 0100 to unlock it';
  await page.goto(`/auth/google/callback?error=${encodeURIComponent(hostile)}&mode=signup`);
  await expect(page).toHaveURL(/\/signup$/);
  await expect(
    page.getByText('The sign-in did not finish. Please try again.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(/locked|555/)).toHaveCount(0);
  await page.goto('/auth/google/callback?error=cancelled&mode=signin');
  await expect(page).toHaveURL(/\/logIn$/);
  await expect(page.getByText('Google sign-in was cancelled.', { exact: true })).toBeVisible();

  await page.goto('/auth/twitter/callback?ticket=made-up&mode=signin');
  await expect(page).toHaveURL(/\/logIn$/);
  expect(await sessionOf(page)).toBeNull();

  await page.goto('/auth/myspace/callback?ticket=x');
  await expect(page).toHaveURL(/\/login$/i);
});

test('sign-up and forgot-password forms show the specified messages and send nothing', async ({ page }) => {
  const calls = recordApiCalls(page);
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('This field is required', { exact: true })).toHaveCount(3);
  await page.getByRole('textbox', { name: 'Email' }).fill('someone@ example.com');
  await page.getByLabel('Password', { exact: true }).fill('password1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Should be a valid email', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Password should be at least 8 characters with one letter, one number, and one symbol.', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(page.getByText('This field is required', { exact: true })).toHaveCount(1);

  await page.goto('/forgetPassword');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('This field is required', { exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill('nobody-at-example.com');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Should be a valid email', { exact: true })).toBeVisible();

  await page.goto('/reset-password?recoveryToken=abc');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('This field is required', { exact: true })).toBeVisible();
  await page.goto('/reset-password');
  await expect(page.getByText(/This reset link is incomplete/)).toBeVisible();

  // The pages read which social sign-ins and which help links the server has, and on load whether the
  // browser holds a session; the forms send nothing.
  const reads = ['/api/auth/providers', '/api/site', '/api/auth/refresh'];
  expect(calls.filter((call) => !reads.includes(call.path))).toEqual([]);
});

test('a social callback turns its ticket into a session: new users to the onboarding, others to the digests', async ({
  page,
  request,
}) => {
  // The provider round trip is the server's (tested against a local OAuth server, and in social.spec.ts);
  // here the ticket exchange answers as the server does, with a real access token.
  const returning = await createUser(request, { label: 'social', fullName: 'Social Person' });
  const fresh = await createUser(request, { label: 'socialnew', complete: false });
  let answer = { accessToken: returning.token.accessToken, isNewUser: false };
  const tickets: string[] = [];
  await page.route('**/api/auth/social/ticket', async (route) => {
    tickets.push((route.request().postDataJSON() as { ticket: string }).ticket);
    const me = await request.get('/api/users/me', {
      headers: { authorization: `Bearer ${answer.accessToken}` },
    });
    await route.fulfill({
      json: {
        token: { accessToken: answer.accessToken },
        isNewUser: answer.isNewUser,
        user: ((await me.json()) as { user: unknown }).user,
      },
    });
  });

  await page.goto('/auth/google/callback?ticket=t-1&mode=signin');
  await expect(page).toHaveURL(/\/digests$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Social Person Digests' })).toBeVisible();
  expect(tickets).toEqual(['t-1']);

  // A sign-up of a known account still goes to the onboarding, and /login keeps sending it there.
  await page.goto('/auth/facebook/callback?ticket=t-2&mode=signup');
  await expect(page).toHaveURL(/\/createDigest$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Social Person!' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to my Digests' }).click();
  await expect(page).toHaveURL(/\/digests$/);

  answer = { accessToken: fresh.token.accessToken, isNewUser: true };
  await page.goto('/auth/twitter/callback?ticket=t-3&mode=signin');
  await expect(page).toHaveURL(/\/createDigest$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Digest!' })).toBeVisible();
  expect(tickets).toEqual(['t-1', 't-2', 't-3']);
});
