import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn } from './support/accounts';
import { createDigest } from './support/digests';
import { fakesOrigin } from './support/fakes';
import { receivedMail, waitForMail } from './support/mailbox';

const SHOTS = '/work/notes/shots/source-health';

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true }).catch(() => undefined);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true }).catch(() => undefined);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

// Issue 17 "Source health", done when: a source failing three issues in a row (the fake feed answering 500,
// 404, 401) gives one alert mail at the real SMTP server, the card and detail marks in Chromium, then
// clears on recovery.
test('a source failing three issues in a row is mailed about once, marked, and cleared on recovery', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createUser(request, { label: 'health', fullName: 'Ada Lovelace' });
  const feed = `${fakesOrigin()}/feeds/scripted/e2e-${randomUUID()}`;
  const answer = async (status: number) =>
    expect((await request.put(feed, { data: { status } })).status()).toBe(204);
  const digest = await createDigest(request, user.token, {
    name: 'Tram Notes',
    sources: [
      { type: 'RSS', feedLink: feed, sourceName: 'Depot News' },
      // Its stories in every issue, so each "Send latest digest" sends one whatever the feed does.
      { type: 'HACKER_NEWS', numberOfPosts: 3, onlyNew: false },
      { type: 'DATE' },
    ],
  });
  const alerts = async () =>
    (await receivedMail()).filter(
      ({ to, mail }) =>
        to.includes(user.email.toLowerCase()) && /a source keeps failing/.test(mail.subject ?? ''),
    );

  await openSignedIn(page, user.token, `/digests/${digest.digestId}`);
  const send = page.getByRole('button', { name: 'Send latest digest' });
  for (const [issue, status] of [
    [1, 500],
    [2, 404],
    [3, 401],
  ] as const) {
    await answer(status);
    await send.click();
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^Issue ${issue}`) })).toBeVisible({
      timeout: 20_000,
    });
  }

  // One alert mail, naming the source and the fix.
  const alert = await waitForMail(user.email, /a source keeps failing/);
  expect(alert.subject).toBe('Digest “Tram Notes”: a source keeps failing, “Depot News”');
  expect(alert.text).toContain('could not be read in the last 3 issues');
  expect(alert.text).toContain(`/digests/${digest.digestId}`);

  // The line at the top of the page says what is wrong and what to do.
  const health = page.getByRole('region', { name: 'Source health' });
  await expect(health.getByRole('heading', { name: '1 source failing' })).toBeVisible();
  await expect(health.getByText('Depot News:')).toBeVisible();
  await expect(health.getByText('Failed 3 issues in a row.', { exact: false })).toBeVisible();
  await shoot(page, 'detail-failing');

  // The owner's copy of the issue links to the fix.
  const issue3 = await waitForMail(user.email, /^Digest “Tram Notes”, issue 3$/);
  expect(issue3.text).toContain('Depot News could not be loaded');

  // The card's mark.
  await page.goto('/digests');
  const card = page.getByRole('article', { name: 'Tram Notes' });
  await expect(card.getByText('1 source failing')).toBeVisible();
  await shoot(page, 'card-failing');

  // The source's block in the builder.
  await page.goto(`/digests/${digest.digestId}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const block = page.getByRole('article', { name: 'Depot News' });
  await expect(block.getByText('Failed 3 issues in a row.', { exact: false })).toBeVisible({
    timeout: 20_000,
  });
  await shoot(page, 'builder-failing');

  // A fourth failure sends no second alert.
  await page.goto(`/digests/${digest.digestId}`);
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 4/ })).toBeVisible({ timeout: 20_000 });
  expect(await alerts()).toHaveLength(1);

  // Recovery clears the page's line and the card's mark.
  await answer(200);
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 5/ })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Source health' })).toHaveCount(0);
  await page.goto('/digests');
  await expect(page.getByRole('article', { name: 'Tram Notes' })).toBeVisible();
  await expect(page.getByText('1 source failing')).toHaveCount(0);
  expect(await alerts()).toHaveLength(1);
});
