import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations } from './support/accounts';
import { seriousViolations } from './support/axe';
import { block, expectLoaded } from './support/builder';
import { createDigest } from './support/digests';

// Issue 17, the next sends: the schedule popup lists the scheduler's next five sends, live, with a note for a
// clock change on the way, in a browser whose zone and clock are fixed (Playwright's timezoneId and clock).
// Screenshots at 1280 and 375 px: test-results/e2e/next-sends-…/<name>-<width>.png.

const WIDTHS = [1280, 375] as const;

/** The list at each width: axe on the page, then a screenshot with the list scrolled into view. */
async function capture(page: Page, testInfo: TestInfo, list: Locator, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    await page.waitForTimeout(150);
    expect(await seriousViolations(page), `${name} at ${width} px`).toEqual([]);
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
}

/** The digest's page, Edit, then Complete: the popup of a saved digest, with its schedule. */
async function openSchedulePopup(page: Page, digestId: string): Promise<Locator> {
  await page.goto(`/digests/${digestId}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expectLoaded(block(page, 'Hacker News'));
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  return page.getByRole('dialog', { name: 'Update your Digest' });
}

const sendsOf = (list: Locator) => list.getByRole('listitem');

test.describe('in New York, a week before the November change', () => {
  test.use({ timezoneId: 'America/New_York', locale: 'en-US' });

  test('the popup lists the next five sends, says the clocks go back, and follows the schedule as it is edited', async ({
    page,
    request,
  }, testInfo) => {
    const csp = recordCspViolations(page);
    const user = await createUser(request, { label: 'nextsendsny', timezone: 'America/New_York' });
    const digest = await createDigest(request, user.token, {
      scheduleType: 'weekly',
      weekDay: 0,
      time: '07:00',
    });
    // Sunday 2027-10-31, noon in New York; its clocks go back on Sunday 2027-11-07.
    await page.clock.setFixedTime(new Date('2027-10-31T16:00:00Z'));
    await openSignedIn(page, user.token, '/digests');
    const popup = await openSchedulePopup(page, digest.digestId);

    const list = popup.getByRole('region', { name: 'Next sends' });
    await expect(sendsOf(list)).toHaveText([
      'Sun, Nov 7, 7:00 amclocks go back on Sun, Nov 7: this issue still comes at 7:00 am your time',
      'Sun, Nov 14, 7:00 am',
      'Sun, Nov 21, 7:00 am',
      'Sun, Nov 28, 7:00 am',
      'Sun, Dec 5, 7:00 am',
    ]);
    await capture(page, testInfo, list, 'popup-new-york');

    // Live: daily at 6:30 am reaches the change on the seventh day, so none of the five is after it.
    await popup.getByLabel('Frequency').selectOption({ label: 'Daily' });
    await popup.getByLabel('Time of day').selectOption({ label: '6:30 am' });
    await expect(sendsOf(list)).toHaveText([
      'Mon, Nov 1, 6:30 am',
      'Tue, Nov 2, 6:30 am',
      'Wed, Nov 3, 6:30 am',
      'Thu, Nov 4, 6:30 am',
      'Fri, Nov 5, 6:30 am',
    ]);
    // Monthly on the 31st: the months that fall back to their last day.
    await popup.getByLabel('Frequency').selectOption({ label: 'Monthly' });
    await popup.getByLabel('Day of month').selectOption({ label: '31st' });
    await expect(sendsOf(list).first()).toHaveText(
      'Tue, Nov 30, 6:30 am' +
        'clocks go back on Sun, Nov 7: this issue still comes at 6:30 am your time' +
        'November has 30 days: this issue comes on the 30th',
    );
    await expect(list.getByText(/falls back/)).toHaveText(
      "The 31st falls back to the month's last day on Nov 30, Feb 29, Apr 30, Jun 30 and Sep 30.",
    );
    await capture(page, testInfo, list, 'popup-new-york-monthly');
    expect(csp).toEqual([]);
  });
});

test.describe('on Lord Howe Island, before its clocks go forward half an hour', () => {
  test.use({ timezoneId: 'Australia/Lord_Howe', locale: 'en-US' });

  test('the popup says which send the 30-minute change moves, and shows the viewer’s time for another zone', async ({
    page,
    request,
  }, testInfo) => {
    const csp = recordCspViolations(page);
    const user = await createUser(request, { label: 'nextsendslh', timezone: 'Australia/Lord_Howe' });
    const digest = await createDigest(request, user.token, { scheduleType: 'daily', time: '02:15' });
    // Friday 2027-10-01, 00:30 on Lord Howe (+10:30); at 02:00 on Sunday 2027-10-03 it goes to 02:30 (+11).
    await page.clock.setFixedTime(new Date('2027-09-30T14:00:00Z'));
    await openSignedIn(page, user.token, '/digests');
    const popup = await openSchedulePopup(page, digest.digestId);

    const list = popup.getByRole('region', { name: 'Next sends' });
    await expect(sendsOf(list)).toHaveText([
      'Fri, Oct 1, 2:15 am',
      'Sat, Oct 2, 2:15 am',
      'Sun, Oct 3, 2:30 am' +
        'clocks go forward 30 minutes on Sun, Oct 3: 2:15 am does not exist that day, so this issue comes at 2:30 am your time',
      'Mon, Oct 4, 2:15 am',
      'Tue, Oct 5, 2:15 am',
    ]);
    await capture(page, testInfo, list, 'popup-lord-howe');

    // The popup's zone is the owner's: another one than the browser's shows both times.
    await popup.getByLabel('Timezone').selectOption('America/New_York');
    await expect(popup.getByRole('heading', { name: 'Next sends (America/New_York)' })).toBeVisible();
    const elsewhere = popup.getByRole('region', { name: 'Next sends (America/New_York)' });
    await expect(sendsOf(elsewhere).first()).toHaveText('Fri, Oct 1, 2:15 amFri, Oct 1, 4:45 pm your time');
    await capture(page, testInfo, elsewhere, 'popup-lord-howe-viewing-new-york');
    expect(csp).toEqual([]);
  });
});

test.describe('the digest page, seen from another zone than the owner’s', () => {
  test.use({ timezoneId: 'Australia/Lord_Howe', locale: 'en-US' });

  test('lists the next five sends in the owner’s zone and the viewer’s, the first being the scheduler’s next issue', async ({
    page,
    request,
  }, testInfo) => {
    const user = await createUser(request, { label: 'nextsendsdetail', timezone: 'America/New_York' });
    const digest = await createDigest(request, user.token, {
      scheduleType: 'weekly',
      weekDay: 0,
      time: '07:00',
    });
    // The real clock: the server's next_run_at and the page's list must agree.
    await openSignedIn(page, user.token, `/digests/${digest.digestId}`);
    const list = page.getByRole('region', { name: 'Next sends (America/New_York)' });
    await expect(sendsOf(list)).toHaveCount(5);
    const nextIssue = await page.getByText(/^Next issue /).textContent();
    const first = await list.getByRole('listitem').first().locator('time').textContent();
    expect(nextIssue).toBe(`Next issue ${first} (America/New_York)`);
    for (const send of await sendsOf(list).all()) {
      await expect(send).toContainText(/^Sun, [A-Z][a-z]{2} \d{1,2}, 7:00 am/);
      await expect(send).toContainText(/ your time/);
    }
    await capture(page, testInfo, list, 'detail-new-york-owner-seen-on-lord-howe');
  });
});
