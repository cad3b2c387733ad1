import { expect, test } from '@playwright/test';
import { storedToken, uniqueUsername } from './support/accounts';

// scripts/e2e.mjs runs the fake providers, whose Google is an OpenID Connect server that signs in one
// verified person, ada.lovelace@gmail.com (test/fakes/fixtures/oauth/accounts.json). The whole round trip runs in the browser: our redirect with state, PKCE
// and nonce, the provider's redirect back, the callback, the ticket exchange.
test('signs up with Google through the local OAuth server, then signs in again as the same account', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByRole('link', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/createDigest$/);
  expect(await storedToken(page)).not.toBeNull();

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
