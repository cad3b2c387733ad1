import { expect, test } from '@playwright/test';
import { createUser, openSignedIn, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';

// The fake providers (test/fakes/providers/oauth.ts) stand in for Google's, X's and Stripe's authorisation
// servers: they consent at once and send the browser back with a code. The whole round trip runs in the
// browser: the app asks the server to connect, the browser goes to the start address (with the state
// cookie), to the provider, back to the callback, and lands on /accounts with the account listed.
test('connects a Google, an X and a Stripe account, lists them, and logs out of one', async ({
  page,
  request,
}, testInfo) => {
  const user = await createUser(request, { label: 'connect' });
  await openSignedIn(page, user.token, '/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Connected accounts' })).toBeVisible();
  const x = page.getByRole('region', { name: 'X (Twitter)' });
  await expect(x.getByText('This source is not connected yet.')).toBeVisible();

  await x.getByRole('button', { name: 'Connect X (Twitter)' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByText('Your X (Twitter) account is connected.')).toBeVisible();
  await expect(x.getByRole('listitem')).toHaveCount(1);
  await expect(x.getByText('@ada_writes')).toBeVisible();

  const google = page.getByRole('region', { name: 'Google' });
  await google.getByRole('button', { name: 'Connect Google' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(google.getByText('ada.lovelace@gmail.com')).toBeVisible();

  const stripe = page.getByRole('region', { name: 'Stripe' });
  await stripe.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(stripe.getByRole('listitem')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshots(page, testInfo, 'connected-accounts');

  // The list the server gives is the same, and holds no token.
  const listed = await request.get('/api/data-sources/social-accounts/list', {
    headers: { authorization: `Bearer ${user.token.accessToken}` },
  });
  const { accounts } = (await listed.json()) as { accounts: Record<string, unknown>[] };
  expect(accounts.map((account) => account.tokenType).sort()).toEqual(['GOOGLE', 'STRIPE', 'TWITTER']);
  expect(JSON.stringify(accounts)).not.toMatch(/fake-\w+-(access|refresh)/);

  await x.getByRole('button', { name: 'Log Out @ada_writes' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to log out of @ada_writes?' });
  await confirm.getByRole('button', { name: 'Log Out' }).click();
  await expect(confirm).toBeHidden();
  await expect(x.getByText('This source is not connected yet.')).toBeVisible();
  await expect(stripe.getByRole('listitem')).toHaveCount(1);
  await expect(google.getByRole('listitem')).toHaveCount(1);

  await page.reload();
  await expect(x.getByText('This source is not connected yet.')).toBeVisible();
});

// The server answers which providers it has credentials for (GET .../social-accounts/providers; its own
// tests cover the 503 of a connect without them). Here the answer is replaced to see the page say so.
test('a provider this server has no credentials for says so, and cannot be connected', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'unconfigured' });
  await page.route('**/api/data-sources/social-accounts/providers', (route) =>
    route.fulfill({
      json: {
        providers: [
          { provider: 'GOOGLE', configured: true },
          { provider: 'TWITTER', configured: true },
          { provider: 'STRIPE', configured: false },
        ],
      },
    }),
  );
  await openSignedIn(page, user.token, '/accounts');
  const stripe = page.getByRole('region', { name: 'Stripe' });
  await expect(stripe.getByText('Stripe is not configured on this server.')).toBeVisible();
  await expect(stripe.getByRole('button', { name: 'Connect Stripe' })).toBeDisabled();
  await expect(
    page.getByRole('region', { name: 'Google' }).getByRole('button', { name: 'Connect Google' }),
  ).toBeEnabled();
});
