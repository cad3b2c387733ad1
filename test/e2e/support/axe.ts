import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * docs/design.md §9: axe-core's serious and critical violations on the page as it is now (dialogs included).
 * A digest issue is the newsletter's own HTML in a sandboxed frame that runs no script (axe cannot run
 * in it either): frames are left out.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}
