import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import axe from 'axe-core';

/**
 * axe-core leaves its experimental rules off (label in name, WCAG 2.5.3, among them); the checks here run
 * them too, so the whole rule set is held.
 */
const EXPERIMENTAL_RULES = Object.fromEntries(
  axe.getRules(['experimental']).map((rule) => [rule.ruleId, { enabled: true }]),
);

/**
 * docs/design.md §9: axe-core's serious and critical violations on the page as it is now (dialogs included),
 * every rule on. A digest issue is the newsletter's own HTML in a sandboxed frame that runs no script (axe
 * cannot run in it either): frames are left out.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page })
    .exclude('iframe')
    .options({ rules: EXPERIMENTAL_RULES })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Colour contrast is measured on the page at rest: a toast fading in is, for a moment, text too faint to read
 * (a slow machine caught axe there). Endless animations (a spinner) are not waited for.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
        ),
    undefined,
    { timeout: 20_000 },
  );
}
