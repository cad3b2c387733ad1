import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import {
  PASSWORD,
  sessionOf,
  signOutHere,
  testClientAddress,
  uniqueEmail,
  uniqueUsername,
} from './support/accounts';
import { blockTypes, sidebar } from './support/builder';
import { verificationLink } from './support/mailbox';

// docs/product.md §2: the kinds a `?sources=` link names before sign-up are kept through the sign-up
// (by e-mail or through a social provider) and the onboarding, then the builder opens them in turn, once.

const SHOTS_DIR = '/tmp/shots-presel';

test.beforeEach(async ({ page }) => {
  // Sign-ups are limited per client address: each test signs up from its own.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': testClientAddress() });
});

/** Signs up on `path` and follows the mailed verification link in the same tab. */
async function signUpByEmail(page: Page, path: string): Promise<void> {
  const email = uniqueEmail('preselect');
  await page.goto(path);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /I agree to the Terms/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await page.goto(await verificationLink(email));
}

async function finishOnboarding(page: Page, fullName = 'Nadia Preselect'): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Welcome to Digest!' })).toBeVisible();
  await page.getByLabel('Full name').fill(fullName);
  await page.getByLabel('Username').fill(uniqueUsername('presel'));
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('an e-mail sign-up with ?sources= goes through the onboarding into the builder with those kinds, once', async ({
  page,
}) => {
  await signUpByEmail(page, '/signup?sources=todaysDate,hackerNews');
  await expect(page).toHaveURL(/\/createDigest\?sources=todaysDate(%2C|,)hackerNews$/);
  await finishOnboarding(page);

  // The date is added at once; Hacker News opens at its settings; the parameter leaves the address.
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(sidebar(page).getByText('Source 2 of 2')).toBeVisible();
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible();
  await expect(sidebar(page).getByLabel('Stories')).toBeVisible();
  expect(await blockTypes(page)).toEqual(['DATE']);
  await mkdir(SHOTS_DIR, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS_DIR}/builder-preselected-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // The end of the sequence closes the sidebar.
  await sidebar(page).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(sidebar(page)).toHaveCount(0);
  expect(await blockTypes(page)).toEqual(['DATE', 'HACKER_NEWS']);

  // Once: the welcome page no longer sends anyone to the builder.
  await page.goto('/createDigest');
  await expect(page.getByRole('heading', { name: 'Welcome, Nadia Preselect!' })).toBeVisible();
});

test('unknown keys in ?sources= are dropped and break nothing', async ({ page }) => {
  await signUpByEmail(page, '/signup?sources=nope,hackerNews,%3Cscript%3Ealert(1)%3C%2Fscript%3E,toString');
  await finishOnboarding(page);
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(sidebar(page).getByText('Source 1 of 1')).toBeVisible();
  await expect(sidebar(page).getByLabel('Stories')).toBeVisible();
  await expect(page.getByText('alert(1)')).toHaveCount(0);

  // With no known key left, the onboarding ends on the welcome page as without the parameter.
  await signOutHere(page);
  await signUpByEmail(page, '/signup?sources=nope,RSS');
  await finishOnboarding(page, 'Omar Unknown');
  await expect(page.getByRole('heading', { name: 'Welcome, Omar Unknown!' })).toBeVisible();
  await expect(page).toHaveURL(/\/createDigest(\?sources=nope%2CRSS)?$/);
});

test('a social sign-up keeps ?sources= through the provider and the onboarding; a social sign-in opens the builder', async ({
  page,
}) => {
  await page.goto('/signup?sources=todaysDate,weather');
  await page.getByRole('link', { name: 'Continue with Twitter' }).click();
  await expect(page).toHaveURL(/\/createDigest\?sources=todaysDate,weather$/);
  expect(await sessionOf(page)).not.toBeNull();
  await finishOnboarding(page, 'Ada Lovelace');
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(sidebar(page).getByText('Source 2 of 2')).toBeVisible();
  await expect(sidebar(page).getByLabel('Search for a city')).toBeVisible();
  expect(await blockTypes(page)).toEqual(['DATE']);
  // Kept for one trip only: nothing is left in the tab.
  expect(await page.evaluate(() => sessionStorage.getItem('digest.socialSources'))).toBeNull();

  // Signing in again from a link that names a kind opens the builder with it, not the digests.
  await signOutHere(page);
  await page.goto('/login?sources=hackerNews');
  await page.getByRole('link', { name: 'Continue with Twitter' }).click();
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(sidebar(page).getByText('Source 1 of 1')).toBeVisible();
  await expect(sidebar(page).getByLabel('Stories')).toBeVisible();

  // Without the parameter, the next sign-in goes to the digests as before.
  await signOutHere(page);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Twitter' }).click();
  await expect(page).toHaveURL(/\/digests$/);
});
