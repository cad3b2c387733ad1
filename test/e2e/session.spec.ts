import { expect, test } from '@playwright/test';
import { createUser, fetchMe, openSignedIn, recordApiCalls, storedToken } from './support/accounts';

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
  expect(await storedToken(page)).toBeNull();
});

test('a refused access token is refreshed once and the call retried; a reused refresh token logs out', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'refresh', fullName: 'Fresh Person' });
  const calls = recordApiCalls(page);
  await openSignedIn(page, { accessToken: 'not-a-jwt', refreshToken: user.token.refreshToken }, '/digests');
  await expect(page.getByRole('heading', { level: 1, name: 'Fresh Person Digests' })).toBeVisible();
  const rotated = await storedToken(page);
  expect(rotated?.refreshToken).not.toBe(user.token.refreshToken);
  expect(rotated?.accessToken).not.toBe('not-a-jwt');
  expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
  expect(calls.filter((call) => call.method === 'GET' && call.path === '/api/users/me')).toHaveLength(2);

  // Presenting the used refresh token again revokes the family: the app logs out and says why.
  await page.evaluate(
    (refreshToken) => localStorage.setItem('token', JSON.stringify({ accessToken: 'expired', refreshToken })),
    user.token.refreshToken,
  );
  await page.goto('/digests');
  await expect(page).toHaveURL(/\/login$/i);
  await expect(page.getByText('Token revoked!', { exact: true })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  // The rotated pair belonged to the revoked family too.
  const refresh = await request.post('/api/auth/refresh', { data: { refreshToken: rotated?.refreshToken } });
  expect(refresh.status()).toBe(401);
});

test('log out from the settings area revokes the session on the server', async ({ page, request }) => {
  const user = await createUser(request, { label: 'logout' });
  await openSignedIn(page, user.token, '/editProfile');
  const token = await storedToken(page);
  await page.getByRole('complementary').getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/i);
  expect(await storedToken(page)).toBeNull();
  const refresh = await request.post('/api/auth/refresh', { data: { refreshToken: token?.refreshToken } });
  expect(refresh.status()).toBe(401);
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

  await page.goto('/auth/google/callback?error=The%20provider%20refused%20the%20sign-in.&mode=signup');
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByText('The provider refused the sign-in.', { exact: true })).toBeVisible();

  await page.goto('/auth/twitter/callback?ticket=made-up&mode=signin');
  await expect(page).toHaveURL(/\/logIn$/);
  expect(await storedToken(page)).toBeNull();

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

  // The pages read which social sign-ins and which help links the server has; the forms send nothing.
  expect(calls.filter((call) => !['/api/auth/providers', '/api/site'].includes(call.path))).toEqual([]);
});

test('a social callback turns its ticket into a session: new users to the onboarding, others to the digests', async ({
  page,
  request,
}) => {
  // The provider round trip is the server's (tested against a local OAuth server); here the ticket
  // exchange answers as the server does, with a real session.
  const returning = await createUser(request, { label: 'social', fullName: 'Social Person' });
  const fresh = await createUser(request, { label: 'socialnew', complete: false });
  let answer: { token: unknown; isNewUser: boolean } = { token: returning.token, isNewUser: false };
  const tickets: string[] = [];
  await page.route('**/api/auth/social/ticket', async (route) => {
    tickets.push((route.request().postDataJSON() as { ticket: string }).ticket);
    const me = await request.get('/api/users/me', {
      headers: { authorization: `Bearer ${(answer.token as { accessToken: string }).accessToken}` },
    });
    await route.fulfill({ json: { ...answer, user: ((await me.json()) as { user: unknown }).user } });
  });

  await page.goto('/auth/google/callback?ticket=t-1&mode=signin');
  await expect(page).toHaveURL(/\/digests$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Social Person Digests' })).toBeVisible();
  expect(await storedToken(page)).toEqual(returning.token);
  expect(tickets).toEqual(['t-1']);

  // A sign-up of a known account still goes to the onboarding, and /login keeps sending it there.
  await page.goto('/auth/facebook/callback?ticket=t-2&mode=signup');
  await expect(page).toHaveURL(/\/createDigest$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Social Person!' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to my Digests' }).click();
  await expect(page).toHaveURL(/\/digests$/);

  answer = { token: fresh.token, isNewUser: true };
  await page.goto('/auth/twitter/callback?ticket=t-3&mode=signin');
  await expect(page).toHaveURL(/\/createDigest$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Digest!' })).toBeVisible();
  expect(await storedToken(page)).toEqual(fresh.token);
  expect(tickets).toEqual(['t-1', 't-2', 't-3']);
});
