import { NOTHING_NEW_MESSAGE } from '@digest/contracts';
import { expect, test } from '@playwright/test';
import { createUser, openSignedIn } from './support/accounts';
import { auth, createDigest } from './support/digests';
import { fakesOrigin } from './support/fakes';
import { waitForMail } from './support/mailbox';

// Issue 16 "Every item once", done when: a digest whose feed does not change sends its items once, then
// says there is nothing new — in the mail (its block's one line), and through "Send latest digest".
test('a digest whose feed does not change sends its items once, then says there is nothing new', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = await createUser(request, { label: 'once', fullName: 'Ada Lovelace' });
  const fieldNotes = { type: 'RSS', feedLink: `${fakesOrigin()}/feeds/rss2.xml`, sourceName: 'Field Notes' };
  const atomNotes = { type: 'RSS', feedLink: `${fakesOrigin()}/feeds/atom.xml`, sourceName: 'Atom Notes' };
  const digest = await createDigest(request, user.token, {
    name: 'Tram Notes',
    // Atom Notes repeats its items (its owner turned "Only new items" off), so issue 2 has something.
    sources: [fieldNotes, { ...atomNotes, onlyNew: false }, { type: 'DATE' }],
  });
  const story = 'The night shift that keeps the trams running';

  await openSignedIn(page, user.token, `/digests/${digest.digestId}`);
  const send = page.getByRole('button', { name: 'Send latest digest' });
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 1/ })).toBeVisible({ timeout: 20_000 });
  const first = await waitForMail(user.email, /^Digest “Tram Notes”, issue 1$/);
  expect(first.html).toContain(story);
  expect(first.html).not.toContain(NOTHING_NEW_MESSAGE);

  // Issue 2: the unchanged feed's block says so in one line instead of repeating its list.
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 2/ })).toBeVisible({ timeout: 20_000 });
  const second = await waitForMail(user.email, /^Digest “Tram Notes”, issue 2$/);
  expect(second.html).not.toContain(story);
  expect(second.html).toContain(NOTHING_NEW_MESSAGE);
  expect(second.text).toContain(NOTHING_NEW_MESSAGE);
  const issue = page.frameLocator('iframe[title="Tram Notes, issue 2"]');
  await expect(issue.getByText(NOTHING_NEW_MESSAGE)).toBeVisible();
  await expect(issue.getByText(story)).toHaveCount(0);
  await page.screenshot({ path: '/tmp/i16-once-issue2-1280.png', fullPage: true });

  // With every source on "Only new items", nothing is new: no issue 3, and the page says why.
  const patched = await request.patch(`/api/digests/${digest.digestId}`, {
    headers: auth(user.token),
    data: { sources: [fieldNotes, atomNotes, { type: 'DATE' }] },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  await page.reload();
  await send.click();
  await expect(page.getByText(NOTHING_NEW_MESSAGE, { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 3/ })).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '/tmp/i16-once-nothing-new-375.png', fullPage: true });
});
