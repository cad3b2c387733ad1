import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn, WIDTHS } from './support/accounts';
import { seriousViolations } from './support/axe';
import { auth, createDigest, turnOnPublicLink } from './support/digests';

// docs/design.md §9: every screen passes axe-core's whole rule set (its experimental rules included, such
// as label in name) with no serious or critical violation, at the three widths.
const SIGNED_OUT = [
  '/logIn',
  '/signup',
  '/forgetPassword',
  '/reset-password?recoveryToken=abc',
  '/terms',
  '/privacy',
  '/changelog',
  '/unsubscribe/not-a-token',
];
const SIGNED_IN = [
  '/digests',
  '/newsletters',
  '/editProfile',
  '/profileView',
  '/accounts',
  '/menu',
  '/support',
  '/terms',
];

async function expectAccessible(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page), path).toEqual([]);
}

/** A digest with one issue, so its page, its public page and its owner's public profile have content. */
async function digestWithAnIssue(request: APIRequestContext, token: Parameters<typeof auth>[0]) {
  const digest = await createDigest(request, token, { name: 'Accessible Brief' });
  const rebuild = await request.post(`/api/digests/rebuild/${digest.digestId}`, { headers: auth(token) });
  expect(rebuild.status(), await rebuild.text()).toBe(200);
  return digest;
}

for (const width of WIDTHS) {
  test(`signed-out screens have no serious accessibility violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const path of SIGNED_OUT) await expectAccessible(page, path);
  });

  test(`signed-in and public screens have no serious accessibility violations at ${width} px`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const user = await createUser(request, { label: `a11y${width}` });
    const digest = await digestWithAnIssue(request, user.token);
    await openSignedIn(page, user.token, SIGNED_IN[0]);
    for (const path of [...SIGNED_IN, `/digests/${digest.digestId}`]) await expectAccessible(page, path);
    // The public pages, as a visitor and as the owner sees them.
    const shareUrl = await turnOnPublicLink(request, user.token, digest.digestId);
    await expectAccessible(page, new URL(shareUrl).pathname);
    await expectAccessible(page, `/user/${user.username}`);

    const incomplete = await createUser(request, { label: `onboard${width}`, complete: false });
    await openSignedIn(page, incomplete.token, '/createDigest');
    await expect(page.getByRole('main')).toBeVisible();
    expect(await seriousViolations(page), '/createDigest').toEqual([]);
  });
}
