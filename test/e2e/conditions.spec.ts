import { expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn } from './support/accounts';
import { block, chooseKind, expectLoaded, save, sidebar } from './support/builder';
import { createDigest, getDigest } from './support/digests';

// Issue 17 "Conditions": a condition set in the builder is refused while wrong and stored once right; an
// issue whose conditions are not met is not sent, and the digest page and "Send latest digest" say why.

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

/** 'HH:mm' at least a minute from now in `timeZone`: the scheduler's next slot comes within two minutes. */
function soon(timeZone: string): string {
  const at = new Date(Date.now() + 75_000);
  return at.toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

const WARSAW = { type: 'WEATHER', latitude: 52.2298, longitude: 21.0118, locationName: 'Warsaw' };
const NO_RAIN = /Skipped: no rain expected \(\d+ % < 100 %\)\./;

test('a condition set in the builder; an issue whose conditions are not met is skipped and says why', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createUser(request, { label: 'conditions', fullName: 'Ada Lovelace' });
  // Scheduled first, so its slot comes while the builder is being used: rain only, and none is expected.
  const scheduled = await createDigest(request, user.token, {
    name: 'Umbrella',
    sources: [{ ...WARSAW, conditions: { rainAtLeast: 100 } }, { type: 'DATE' }, { type: 'DATE' }],
  });
  const { timeZone } = (await getDigest(request, user.token, scheduled.digestId)) as unknown as {
    timeZone: string;
  };
  const patched = await request.patch(`/api/digests/${scheduled.digestId}`, {
    headers: { authorization: `Bearer ${user.token.accessToken}` },
    data: { time: soon(timeZone) },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  await openSignedIn(page, user.token, '/digestCreator');
  await chooseKind(page, 'Hacker News');
  const points = sidebar(page).getByLabel('Points at least');
  await points.fill('-5');
  await expect(sidebar(page).getByText('Points at least must be 0 or more')).toBeVisible();
  await expect(sidebar(page).getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await points.fill('300');
  await sidebar(page).getByLabel('New items at least').fill('2');
  await expect(sidebar(page).getByText('Conditions', { exact: true })).toBeVisible();
  await shoot(page, 'builder-hacker-news-conditions', true);
  await save(page);
  await expectLoaded(block(page, 'Hacker News'));

  await chooseKind(page, 'Weather');
  await sidebar(page).getByRole('searchbox', { name: 'Search for a city' }).fill('Warsaw');
  await sidebar(page)
    .getByRole('button', { name: /^Warsaw/ })
    .first()
    .click();
  await sidebar(page).getByLabel('Rain chance at least (%)').fill('120');
  await expect(sidebar(page).getByText('Rain chance at least (%) must be from 0 to 100')).toBeVisible();
  await sidebar(page).getByLabel('Rain chance at least (%)').fill('100');
  await sidebar(page).getByLabel('Lowest temperature (°F)').fill('50');
  await sidebar(page).getByLabel('Highest temperature (°F)').fill('20');
  await expect(sidebar(page).getByText('Lowest temperature must be below the highest')).toBeVisible();
  await shoot(page, 'builder-weather-refused', true);
  await sidebar(page).getByLabel('Lowest temperature (°F)').fill('');
  await sidebar(page).getByLabel('Highest temperature (°F)').fill('');
  await save(page);
  await expectLoaded(block(page, 'Weather'));
  await chooseKind(page, "Today's Date");
  await save(page);

  // Stripe: connect the account (the fake provider consents at once), then its revenue condition.
  await chooseKind(page, 'Stripe');
  await sidebar(page).getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible({
    timeout: 20_000,
  });
  await sidebar(page)
    .getByRole('group')
    .first()
    .getByRole('checkbox', { name: 'Include in this Digest' })
    .check();
  const change = sidebar(page).getByLabel('Revenue change above (%)');
  await change.fill('1001');
  await expect(sidebar(page).getByText('Revenue change above (%) must be from 0 to 1000')).toBeVisible();
  await shoot(page, 'builder-stripe-refused', true);
  await change.fill('10');
  await save(page);
  await expectLoaded(block(page, 'Stripe'));

  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const popup = page.getByRole('dialog', { name: 'Schedule your Digest' });
  const needed = popup.getByLabel('Send only when at least this many sources have something to say');
  await expect(needed).toHaveValue('0');
  await needed.fill('21');
  await expect(popup.getByText('Sources needed must be from 0 to 20')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Done' })).toBeDisabled();
  await needed.fill('3');
  await shoot(page, 'schedule-popup-sources-needed', true);
  await popup.getByRole('button', { name: 'Done' }).click();
  const done = page.getByRole('dialog', { name: 'Well done!' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  // Its first issue, built now, was held back by its conditions: the done step says why.
  await expect(
    done.getByText(
      /^Your first issue was not sent now\. Skipped: 2 of 4 sources had something to say, at least 3 needed/,
    ),
  ).toBeVisible();
  await shoot(page, 'schedule-done-conditions-not-met', true);

  const listed = await request.get('/api/digests', {
    headers: { authorization: `Bearer ${user.token.accessToken}` },
  });
  const built = ((await listed.json()) as { digests: { digestId: string; name: string }[] }).digests.find(
    (digest) => digest.digestId !== scheduled.digestId,
  );
  const stored = (await getDigest(request, user.token, built?.digestId ?? '')) as unknown as {
    minSourcesToSend: number;
    sources: { type: string; conditions?: unknown }[];
  };
  expect(stored.minSourcesToSend).toBe(3);
  expect(stored.sources.map((source) => [source.type, source.conditions ?? null])).toEqual([
    ['HACKER_NEWS', { minPoints: 300, minNewItems: 2 }],
    ['WEATHER', { rainAtLeast: 100 }],
    ['DATE', null],
    ['STRIPE', { revenueChangeAbove: 10 }],
  ]);

  // Send latest digest: Hacker News has stories and Stripe's revenue moved by more than 10 % from the
  // day before, but the weather expects no rain and the date never counts: 2 of 4, and 3 are needed.
  await page.goto(`/digests/${built?.digestId}`);
  await page.getByRole('button', { name: 'Send latest digest' }).click();
  await expect(
    page
      .locator('#main')
      .getByText(
        /Skipped: 2 of 4 sources had something to say, at least 3 needed \(no rain expected \(\d+ % < 100 %\)\)\./,
      ),
  ).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 1/ })).toHaveCount(0);
  await shoot(page, 'detail-send-latest-skipped', true);

  // The scheduled issue of the other digest: skipped, and its page says why.
  await page.goto(`/digests/${scheduled.digestId}`);
  const missed = page.getByText(NO_RAIN);
  await expect(async () => {
    await page.reload();
    await expect(missed).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 100_000, intervals: [3_000] });
  await expect(page.getByText(/^The issue of .* was not sent: Skipped: no rain expected/)).toBeVisible();
  await shoot(page, 'detail-skipped', true);
});
