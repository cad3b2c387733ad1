import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';
import { chooseKind, save, sidebar } from './support/builder';

// Issue 7: every builder step passes axe-core (no serious or critical violation) at 1280, 768 and 375 px
// and is captured at each (test-results/e2e/builder-screens-…/<step>-<width>.png), to be looked at.

/** At each width: axe, then the screenshot. */
async function check(page: Page, testInfo: TestInfo, step: string, fullPage = true): Promise<void> {
  await screenshots(page, testInfo, step, {
    fullPage,
    atWidth: async (width) => {
      expect(await seriousViolations(page), `${step} at ${width} px`).toEqual([]);
    },
  });
}

test('builder steps, the schedule popup and the welcome page: axe and screenshots at 1280, 768 and 375 px', async ({
  page,
  request,
}, testInfo) => {
  // Axe and three screenshots for each of ten screens: ≈ 1 min on a quick machine, over 2 on a slow one.
  test.setTimeout(360_000);
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'builderscreens', fullName: 'Ada Lovelace' });

  // The welcome page, with two kinds picked for the guided sequence.
  await openSignedIn(page, user.token, '/createDigest');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace!' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Hacker News' }).check();
  await page.getByRole('checkbox', { name: 'RSS' }).check();
  await check(page, testInfo, 'welcome');

  // Guided: Hacker News opens at its settings (the edit step of a new source, previewed in place).
  await page.getByRole('button', { name: 'Create digest' }).click();
  await expect(sidebar(page).getByText('Source 1 of 2')).toBeVisible();
  await expect(page.getByTestId('new-source-block').getByRole('link').first()).toBeVisible();
  await check(page, testInfo, 'builder-edit');
  await save(page);

  // Selected: RSS at its popular feeds.
  const feeds = sidebar(page).getByRole('region', { name: 'Popular' });
  await expect(feeds.getByRole('button').first()).toBeVisible();
  await check(page, testInfo, 'builder-selected');

  // Searching: a phrase, its results.
  await sidebar(page).getByRole('searchbox', { name: 'Search feeds or paste a feed address' }).fill('tech');
  const results = sidebar(page).getByRole('region', { name: 'Results' });
  await expect(results.getByRole('button').first()).toBeVisible();
  await check(page, testInfo, 'builder-searching');
  await results.getByRole('button').first().click();
  // The last kind of the guided sequence: saving it closes the sidebar.
  await sidebar(page).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(sidebar(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Add source' }).click();

  // Entry: the list of kinds.
  await expect(
    sidebar(page).getByRole('region', { name: 'Popular' }).getByRole('button').first(),
  ).toBeVisible();
  await check(page, testInfo, 'builder-entry');

  // Connect: Google Calendar with no account yet.
  await chooseKind(page, 'Google Calendar');
  await expect(sidebar(page).getByText('This source is not connected yet.')).toBeVisible();
  await check(page, testInfo, 'builder-connect');
  await sidebar(page).getByRole('button', { name: 'Back' }).click();
  await chooseKind(page, "Today's Date");
  await save(page);
  await sidebar(page).getByRole('button', { name: 'Close sources' }).click();
  await expect(page.getByTestId('source-block')).toHaveCount(3);
  await check(page, testInfo, 'builder-blocks');

  // The schedule popup: init, then done.
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const popup = page.getByRole('dialog', { name: 'Schedule your Digest' });
  await popup.getByLabel('Frequency').selectOption({ label: 'Weekly' });
  await popup.getByLabel("Friend's email").fill('not-an-email');
  await popup.getByRole('button', { name: 'Add email to the list' }).click();
  await expect(popup.getByText('not-an-email should be a valid email!')).toBeVisible();
  await popup.getByLabel("Friend's email").fill('grace@example.com');
  await popup.getByRole('button', { name: 'Add email to the list' }).click();
  await check(page, testInfo, 'schedule-init', false);
  await popup.getByRole('button', { name: 'Done' }).click();
  const done = page.getByRole('dialog', { name: 'Well done!' });
  await expect(done.getByRole('button', { name: 'Go to Digests' })).toBeVisible({ timeout: 30_000 });
  await check(page, testInfo, 'schedule-done', false);
  expect(csp).toEqual([]);
});
