import { expect, type Locator, type Page } from '@playwright/test';

// The builder (/digestCreator) as its specs drive it.

/** The digest's blocks, in their order on screen. */
export const stack = (page: Page) => page.getByRole('list', { name: 'Sources of your Digest' });
export const block = (page: Page, title: string) =>
  stack(page).getByRole('article', { name: title, exact: true });
export const sidebar = (page: Page) => page.getByRole('complementary');

/** The kinds of the blocks on screen, top to bottom. */
export const blockTypes = (page: Page) =>
  page
    .getByTestId('source-block')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-type')));

/** Waits until a block's live content has loaded (its placeholder is gone). */
export async function expectLoaded(card: Locator): Promise<void> {
  await expect(card.getByRole('status', { name: "Loading the source's content" })).toHaveCount(0, {
    timeout: 15_000,
  });
}

/** At the entry step: a kind found by the 'Search sources' box, then its first step opens. */
export async function chooseKind(page: Page, name: string): Promise<void> {
  const side = sidebar(page);
  await side.getByRole('searchbox', { name: 'Search sources' }).fill(name);
  await side.getByRole('region', { name: 'Results' }).getByRole('button', { name, exact: true }).click();
}

/** Save in the sidebar: the source goes into the digest and the sidebar is back at the list of kinds. */
export async function save(page: Page): Promise<void> {
  const button = sidebar(page).getByRole('button', { name: 'Save', exact: true });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Select sources' })).toBeVisible();
}

/**
 * A searched kind (RSS, Reddit, YouTube) added from its Popular list with its default settings: the kind,
 * the pick whose name starts with `pick`, Save, then its block titled `title` has loaded.
 */
export async function addFromPopular(page: Page, kind: string, pick: string, title: string): Promise<void> {
  await chooseKind(page, kind);
  await sidebar(page)
    .getByRole('region', { name: 'Popular' })
    // The result's name is its title then its description: it starts with the pick.
    .getByRole('button', { name: new RegExp(`^${pick}`) })
    .click();
  await save(page);
  await expectLoaded(block(page, title));
}
