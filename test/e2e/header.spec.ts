import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createUser, openSignedIn } from './support/accounts';

// WCAG 2.5.3 (label in name): a control's accessible name contains the text it shows, so a person who says
// what they see reaches it. axe's rule for it is experimental, hence off unless it is enabled by name.
const LABEL_IN_NAME = 'label-content-name-mismatch';

for (const width of [1280, 768, 375]) {
  test(`the signed-in header has no serious accessibility violation, label in name included, at ${width} px`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const user = await createUser(request, { label: `header${width}`, fullName: 'Ada Lovelace' });
    await openSignedIn(page, user.token, '/digests');
    await expect(page.getByRole('banner')).toBeVisible();
    await page.waitForLoadState('networkidle');

    const results = await new AxeBuilder({ page })
      .include('header')
      .options({ rules: { [LABEL_IN_NAME]: { enabled: true } } })
      .analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
    expect(serious).toEqual([]);
    const checked = [...results.passes, ...results.inapplicable].map((rule) => rule.id);
    expect(checked).toContain(LABEL_IN_NAME);

    // The profile button (tablets and desktops; phones use /menu) is named by the name it shows.
    const profile = page.getByRole('banner').getByRole('button', { name: 'Ada Lovelace profile menu' });
    if (width >= 568) {
      await expect(profile).toBeVisible();
      await expect(profile).toHaveAttribute('aria-haspopup', 'menu');
      if (width >= 992) await expect(profile).toContainText('Ada Lovelace');
    } else {
      await expect(profile).toBeHidden();
    }
  });
}
