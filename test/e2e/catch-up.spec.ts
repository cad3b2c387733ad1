import { CATCH_UP_MESSAGES } from '@digest/contracts';
import { expect, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';
import { auth, createDigest, getDigest } from './support/digests';

// Issue 17 "While you were away": turning on a digest paused for longer than its period asks whether to send
// one catch-up issue. The browser's clock is set three weeks ahead of the server's, so the web app offers
// the catch-up while the server, whose pause is seconds old, refuses it with its own rule (the server's
// pipeline test sends one on a fake clock). Screenshots at 1280 and 375 px:
// test-results/e2e/catch-up-…/resume-confirmation-<width>.png.

const DAY_MS = 86_400_000;

test('a long pause asks first: the catch-up the server refuses flips back with its reason, "Resume without" resumes', async ({
  page,
  request,
}, testInfo) => {
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'catchup' });
  const digest = await createDigest(request, user.token, { name: 'Away Brief' });
  const pause = await request.patch(`/api/digests/${digest.digestId}`, {
    headers: auth(user.token),
    data: { active: false },
  });
  expect(pause.status(), await pause.text()).toBe(200);

  await page.clock.setFixedTime(new Date(Date.now() + 22 * DAY_MS));
  await openSignedIn(page, user.token, '/digests');
  const card = page.getByRole('article', { name: 'Away Brief', exact: true });
  const toggle = card.getByRole('switch', { name: 'Active' });
  await expect(toggle).not.toBeChecked();

  await toggle.click();
  const dialog = page.getByRole('dialog', { name: 'Resume “Away Brief”?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('It has been paused for 3 weeks.');
  await expect(dialog).toContainText('the Hacker News best of that time');
  await screenshots(page, testInfo, 'resume-confirmation', { fullPage: false, widths: [1280, 375] });
  expect(await seriousViolations(page), 'the resume confirmation').toEqual([]);

  // The server's rule stands: paused seconds ago by its clock, the catch-up is refused and nothing changes.
  await dialog.getByRole('button', { name: 'Send one catch-up issue' }).click();
  await expect(page.getByText(CATCH_UP_MESSAGES.notLongEnough)).toBeVisible();
  await expect(toggle).not.toBeChecked();
  expect((await getDigest(request, user.token, digest.digestId)).active).toBe(false);

  await toggle.click();
  await dialog.getByRole('button', { name: 'Resume without' }).click();
  await expect(dialog).toBeHidden();
  await expect(toggle).toBeChecked();
  await expect.poll(async () => (await getDigest(request, user.token, digest.digestId)).active).toBe(true);
  expect(csp).toEqual([]);
});
