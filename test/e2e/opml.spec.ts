import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations } from './support/accounts';
import { block, expectLoaded, sidebar } from './support/builder';
import { getDigest } from './support/digests';

// Issue 16 "OPML and portability": an OPML file from a feed reader becomes a digest in the browser.

const FEEDLY = new URL('../fixtures/opml/feedly.opml', import.meta.url);
const feedly = { name: 'feedly.opml', mimeType: 'text/x-opml', buffer: readFileSync(FEEDLY) };
const TECH_FEEDS = [
  'https://news.ycombinator.com/rss',
  'https://feeds.arstechnica.com/arstechnica/index',
  'https://www.theverge.com/rss/index.xml',
];

/** Screenshots for a person to look at, when SCREENSHOT_DIR names a folder (never in the repository). */
async function shoot(page: Page, name: string, fullPage = false) {
  const folder = process.env.SCREENSHOT_DIR;
  if (!folder) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${folder}/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the builder: feeds ticked in a Feedly export become the blocks of a new digest', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'opmlbuilder', fullName: 'Ada Lovelace' });
  await openSignedIn(page, user.token, '/digestCreator');
  await sidebar(page).getByRole('button', { name: 'Import OPML' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import OPML' });
  await expect(dialog).toBeVisible();

  // A file that is not OPML: the server's message next to the upload, nothing added.
  await dialog.getByLabel('OPML file').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('just some notes'),
  });
  await expect(dialog.getByRole('alert')).toHaveText(
    'This file is not OPML. Export your subscriptions from your feed reader as OPML and try again.',
  );
  await shoot(page, 'opml-not-opml');
  // Too large: refused before it is sent.
  await dialog.getByLabel('OPML file').setInputFiles({
    name: 'huge.opml',
    mimeType: 'text/x-opml',
    buffer: Buffer.alloc(2 * 1024 * 1024, ' '),
  });
  await expect(dialog.getByRole('alert')).toHaveText(
    'This file is larger than 1 MB. An OPML export of feeds is much smaller: choose another file.',
  );

  await dialog.getByLabel('OPML file').setInputFiles(feedly);
  await expect(dialog.getByText('Jo subscriptions in feedly Cloud: 6 feeds')).toBeVisible();
  const tech = dialog.getByRole('group', { name: 'Tech' });
  await expect(dialog.getByRole('group', { name: 'Cooking & Food' })).toBeVisible();
  await shoot(page, 'opml-builder-dialog');
  const add = dialog.getByRole('button', { name: /^Add \d+ feeds?$/ });
  await expect(add).toBeDisabled();
  for (const name of ['Hacker News', 'Ars Technica', 'The Verge']) {
    await tech.getByRole('checkbox', { name: new RegExp(`^${name}`) }).check();
  }
  await dialog.getByRole('button', { name: 'Add 3 feeds' }).click();
  await expect(dialog).toBeHidden();

  for (const name of ['Hacker News', 'Ars Technica', 'The Verge']) await expectLoaded(block(page, name));
  const complete = page.getByRole('button', { name: 'Complete', exact: true });
  await expect(complete).toBeEnabled();
  await complete.click();
  const popup = page.getByRole('dialog', { name: 'Schedule your Digest' });
  await popup.getByRole('button', { name: 'Done' }).click();
  const done = page.getByRole('dialog', { name: 'Well done!' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await done.getByRole('button', { name: 'Go to Digests' }).click();
  const card = page.getByRole('article', { name: "Ada Lovelace's Digest", exact: true });
  await expect(card).toBeVisible();
  await card.getByRole('link').first().click();
  // The click navigates in the app: the address is read once it names the digest, not as the click returns.
  await expect(page).toHaveURL(/\/digests\/[^/?#]+$/);
  const digestId = /\/digests\/([^/?#]+)/.exec(page.url())?.[1] as string;
  const digest = (await getDigest(request, user.token, digestId)) as unknown as {
    sources: { type: string; feedLink: string; sourceName: string }[];
  };
  expect(digest.sources.map((source) => [source.type, source.feedLink, source.sourceName])).toEqual([
    ['RSS', TECH_FEEDS[0], 'Hacker News'],
    ['RSS', TECH_FEEDS[1], 'Ars Technica'],
    ['RSS', TECH_FEEDS[2], 'The Verge'],
  ]);
  expect(csp).toEqual([]);
});

test('the Digests page: one digest per folder of an export; a digest exports its feeds; all my data downloads', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'opmlfolders', fullName: 'Grace Hopper' });
  await openSignedIn(page, user.token, '/digests');
  await page.getByRole('button', { name: 'Import OPML' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import OPML' });

  // A feed on a private address is set apart with its reason and cannot be ticked.
  const mixed = `<?xml version="1.0"?><opml version="2.0"><head><title>Mixed</title></head><body>
    <outline text="Home"><outline text="Router" xmlUrl="http://192.168.1.1/rss"/>
    <outline text="Good one" xmlUrl="https://example.com/one.xml"/></outline></body></opml>`;
  await dialog.getByLabel('OPML file').setInputFiles({
    name: 'mixed.opml',
    mimeType: 'text/x-opml',
    buffer: Buffer.from(mixed),
  });
  await expect(dialog.getByText('Mixed: 1 feed, 1 that cannot be added')).toBeVisible();
  await expect(
    dialog.getByText('Cannot be added: Private, local and reserved network addresses cannot be reached'),
  ).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: /^Router/ })).toHaveCount(0);
  // A folder of one feed cannot be a digest (at least 3 sources): said beside it.
  await dialog.getByRole('checkbox', { name: 'Home', exact: true }).check();
  await expect(
    dialog.getByText('The folder "Home" has 1 feed; a Digest needs at least 3 sources.'),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create 1 digest' })).toBeDisabled();
  await shoot(page, 'opml-refused');

  await dialog.getByLabel('OPML file').setInputFiles(feedly);
  await expect(dialog.getByRole('checkbox', { name: 'Tech', exact: true })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Cooking & Food', exact: true })).toBeChecked();
  await shoot(page, 'opml-folders-dialog');
  await dialog.getByRole('button', { name: 'Create 2 digests' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Tech', exact: true })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Cooking & Food', exact: true })).toBeVisible();
  await shoot(page, 'opml-digests-page');

  // The digest's page exports its feeds: the same three, as OPML.
  await page.getByRole('article', { name: 'Tech', exact: true }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tech' })).toBeVisible();
  await shoot(page, 'opml-digest-detail');
  const [opml] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export feeds (OPML)' }).click(),
  ]);
  expect(opml.suggestedFilename()).toBe('Tech.opml');
  const exported = readFileSync((await opml.path()) as string, 'utf8');
  for (const url of TECH_FEEDS) expect(exported).toContain(`xmlUrl="${url}"`);

  // Edit profile: all my data as JSON, with both digests.
  await page.goto('/editProfile');
  await expect(page.getByRole('heading', { level: 2, name: 'Your data' })).toBeVisible();
  await shoot(page, 'opml-profile', true);
  const [archive] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all my data (JSON)' }).click(),
  ]);
  expect(archive.suggestedFilename()).toBe('digest-archive.json');
  const data = JSON.parse(readFileSync((await archive.path()) as string, 'utf8'));
  expect(data.digests.map((digest: { name: string }) => digest.name).sort()).toEqual([
    'Cooking & Food',
    'Tech',
  ]);
  expect(csp).toEqual([]);
});
