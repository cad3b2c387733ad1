import { expect, test } from '@playwright/test';
import { createUser, openSignedIn, sessionOf, uniqueUsername } from './support/accounts';

// scripts/e2e.mjs runs the fake providers, whose Google is an OpenID Connect server that signs in one
// verified person, ada.lovelace@gmail.com (test/fakes/fixtures/oauth/accounts.json). The whole round trip runs in the browser: our redirect with state, PKCE
// and nonce, the provider's redirect back, the callback, the ticket exchange.
test('signs up with Google through the local OAuth server, then signs in again as the same account', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByRole('link', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/createDigest$/);
  expect(await sessionOf(page)).not.toBeNull();

  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Username').fill(uniqueUsername('ada'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.goto('/editProfile');
  // A Google account has no password here: the e-mail is fixed and the password block is absent.
  await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveValue('ada.lovelace@gmail.com');
  await expect(page.getByRole('textbox', { name: 'Email address' })).not.toBeEditable();
  await expect(page.getByText('Change password')).toHaveCount(0);

  await page.getByRole('complementary').getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/i);

  await page.getByRole('link', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/digests$/);
  await expect(page.getByRole('heading', { name: 'Ada Lovelace Digests' })).toBeVisible();
});

test("login CSRF: a victim who opens an attacker's callback link is not signed in as the attacker", async ({
  page,
  playwright,
}) => {
  // The attacker runs a Google sign-in in their own client (start, provider, callback, each redirect by
  // hand), and keeps the app's callback link with its ticket instead of following it.
  const attacker = await playwright.request.newContext({ baseURL: String(test.info().project.use.baseURL) });
  let next = '/api/auth/signin/google';
  for (let hop = 0; hop < 3; hop++) {
    const response = await attacker.get(next, { maxRedirects: 0 });
    expect(response.status(), next).toBe(302);
    next = response.headers().location ?? '';
  }
  await attacker.dispose();
  expect(next).toMatch(/\/auth\/google\/callback\?ticket=[\w-]{43}&mode=signin$/);

  // The victim's browser opens it: the ticket is refused there, and nobody is signed in.
  await page.goto(next);
  await expect(page).toHaveURL(/\/logIn$/);
  await expect(
    page.getByText('This sign-in was started in another browser. Start it again here.', { exact: true }),
  ).toBeVisible();
  expect(await sessionOf(page)).toBeNull();
});

test("a social sign-in never replaces another user's session: it is refused with a message", async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'keepme', fullName: 'Kept Person' });
  await openSignedIn(page, user.token, '/digests');
  await expect(page.getByRole('heading', { level: 1, name: 'Kept Person Digests' })).toBeVisible();
  // A Google sign-in (as ada.lovelace@gmail.com) started in this browser while it is signed in as someone else.
  await page.goto('/api/auth/signin/google');
  await expect(
    page.getByText(
      'You are already logged in with another account. Log out first, then continue with Google.',
      {
        exact: true,
      },
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/digests$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Kept Person Digests' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Kept Person Digests' })).toBeVisible();
});
