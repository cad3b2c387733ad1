import { expect, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations, screenshots } from './support/accounts';

test('signed-in screens at 1280 and 375 px: header, menu, newsletters, profile, builder', async ({
  page,
  request,
}, testInfo) => {
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'screens', fullName: 'Ada Lovelace' });
  await openSignedIn(page, user.token, '/digests');
  await expect(page.getByRole('heading', { level: 1, name: 'Ada Lovelace Digests' })).toBeVisible();

  // Header: 'Create digest' on larger screens, 'New digest' and the menu link on phones (docs/product.md §2).
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('button', { name: 'Create digest' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Newsletters' }),
  ).toBeVisible();
  await page.setViewportSize({ width: 768, height: 900 });
  await page.screenshot({ path: testInfo.outputPath('digests-768.png') });
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(page.getByRole('button', { name: 'New digest' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await page.getByRole('link', { name: 'Menu' }).click();
  await expect(page).toHaveURL(/\/menu$/);
  const menu = page.getByRole('navigation', { name: 'Menu' });
  for (const name of [
    'Digests',
    'Newsletters',
    'Create digest',
    'Edit profile',
    'Digest Updates',
    'Support',
  ]) {
    await expect(menu.getByRole('link', { name })).toBeVisible();
  }
  await expect(menu.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('menu-375.png'), fullPage: true });

  await menu.getByRole('link', { name: 'Newsletters' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ada Lovelace Newsletters' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'No newsletters yet' })).toBeVisible();
  await expect(page.getByText(`${user.username?.toLowerCase()}@`, { exact: false })).toBeVisible();
  await screenshots(page, testInfo, 'newsletters');

  await page.goto('/profileView');
  await expect(page.getByRole('heading', { level: 2, name: 'Ada Lovelace' })).toBeVisible();
  await screenshots(page, testInfo, 'profile-view');

  await page.getByRole('button', { name: 'Create digest' }).click();
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(page.getByLabel('Digest name')).toHaveValue("Ada Lovelace's Digest");
  await screenshots(page, testInfo, 'digest-creator');

  await page.goto('/changelog');
  await expect(page.getByRole('heading', { level: 1, name: 'Changelog' })).toBeVisible();
  await page.goto('/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support page' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('signed-out screens at 1280 and 375 px', async ({ page }, testInfo) => {
  const csp = recordCspViolations(page);
  await page.goto('/logIn');
  await screenshots(page, testInfo, 'login');
  await page.goto('/auth/google/callback?error=cancelled');
  await expect(page).toHaveURL(/\/logIn$/);
  await expect(page.getByText('Google sign-in was cancelled.', { exact: true })).toBeVisible();
  await screenshots(page, testInfo, 'social-error-toast', { fullPage: false });
  expect(csp).toEqual([]);
});
