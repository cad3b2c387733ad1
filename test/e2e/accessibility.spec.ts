import { expect, test } from '@playwright/test';
import { createUser, openSignedIn } from './support/accounts';
import { seriousViolations } from './support/axe';

// docs/design.md §9: every screen passes axe-core with no serious or critical violation, at both widths.
const SIGNED_OUT = ['/logIn', '/signup', '/forgetPassword', '/reset-password?recoveryToken=abc'];
const SIGNED_IN = ['/digests', '/newsletters', '/editProfile'];

for (const width of [1280, 375]) {
  test(`signed-out screens have no serious accessibility violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const path of SIGNED_OUT) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });

  test(`signed-in screens have no serious accessibility violations at ${width} px`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const user = await createUser(request, { label: `a11y${width}` });
    await openSignedIn(page, user.token, SIGNED_IN[0]);
    for (const path of SIGNED_IN) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), path).toEqual([]);
    }
    const incomplete = await createUser(request, { label: `onboard${width}`, complete: false });
    await openSignedIn(page, incomplete.token, '/createDigest');
    await expect(page.getByRole('main')).toBeVisible();
    expect(await seriousViolations(page), '/createDigest').toEqual([]);
  });
}
