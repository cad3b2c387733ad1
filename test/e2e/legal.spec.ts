import { expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';

/** SUPPORT_EMAIL as playwright.config.ts starts the server with it. */
const SUPPORT_MAILTO = 'mailto:help@digest.test';

const DOCUMENTS = [
  { path: '/terms', title: 'Terms of Service', section: 'Your account' },
  { path: '/privacy', title: 'Privacy Policy', section: 'What Digest stores' },
  { path: '/changelog', title: 'Changelog', section: 'Unreleased' },
] as const;

async function expectDocument(page: Page, document: (typeof DOCUMENTS)[number]) {
  await expect(page.getByRole('heading', { level: 1, name: document.title })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: document.section })).toBeVisible();
  await expect(page.getByRole('link', { name: 'help@digest.test' })).toHaveAttribute('href', SUPPORT_MAILTO);
}

test('sign-up links its Terms of Service and Privacy Policy, which open the pages, signed out', async ({
  page,
}, testInfo) => {
  const csp = recordCspViolations(page);
  await page.goto('/signup');
  const terms = page.getByRole('link', { name: 'Terms of Service' });
  const privacy = page.getByRole('link', { name: 'Privacy Policy' });
  await expect(terms).toHaveAttribute('href', '/terms');
  await expect(privacy).toHaveAttribute('href', '/privacy');
  // The checkbox keeps its full text as its name.
  await expect(
    page.getByRole('checkbox', { name: 'I agree to the Terms of Service and the Privacy Policy' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Need Help? Contact us' })).toHaveAttribute(
    'href',
    SUPPORT_MAILTO,
  );
  await screenshots(page, testInfo, 'signup', { widths: [1280, 375] });
  expect(await seriousViolations(page), '/signup').toEqual([]);

  // Each opens in a new tab, so the form keeps what was typed; ticking it is still the label's job.
  for (const [link, document] of [
    [terms, DOCUMENTS[0]],
    [privacy, DOCUMENTS[1]],
  ] as const) {
    const [tab] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await expect(tab).toHaveURL(new RegExp(`${document.path}$`));
    await expectDocument(tab, document);
    await tab.close();
  }
  await expect(page.getByRole('checkbox')).not.toBeChecked();

  for (const document of DOCUMENTS) {
    await page.goto(document.path);
    await expectDocument(page, document);
    await screenshots(page, testInfo, document.path.slice(1), { widths: [1280, 375] });
    expect(await seriousViolations(page), document.path).toEqual([]);
  }
  expect(csp).toEqual([]);
});

test('signed in: the pages open too, and Support and Digest Updates use the server’s settings', async ({
  page,
  request,
}) => {
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'legal', fullName: 'Grace Hopper' });
  await openSignedIn(page, user.token, '/terms');
  await expectDocument(page, DOCUMENTS[0]);
  await expect(page.getByRole('link', { name: 'Go to your Digests' })).toBeVisible();

  await page.goto('/support');
  await expect(page.getByRole('link', { name: 'Write to us' })).toHaveAttribute('href', SUPPORT_MAILTO);

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/menu');
  const menu = page.getByRole('navigation', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'Support' })).toHaveAttribute('href', SUPPORT_MAILTO);
  await menu.getByRole('link', { name: 'Digest Updates' }).click();
  await expectDocument(page, DOCUMENTS[2]);
  expect(csp).toEqual([]);
});
