import { NOTHING_NEW_MESSAGE } from '@digest/contracts';
import { expect, test } from '@playwright/test';
import { createUser, openSignedIn } from './support/accounts';
import { block, chooseKind, expectLoaded, save, sidebar } from './support/builder';
import { waitForMail } from './support/mailbox';
import { E2E_MAIL_DOMAIN, sendNewsletter } from './support/newsletters';

// Issue 14 "In the digest": a newsletter received by real SMTP reaches the builder's live preview and the
// first issue of a digest built in the builder; "Send latest digest" never carries it a second time.
test('a newsletter received by SMTP is in the issue of a digest with a Newsletters block, once', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const user = await createUser(request, { label: 'letters', fullName: 'Ada Lovelace' });
  const subject = 'Field Letters #7: the tram depot at night';
  expect(
    await sendNewsletter({
      to: `${user.username}@${E2E_MAIL_DOMAIN}`,
      from: 'Field Letters <editor@field-letters.example>',
      subject,
      html: '<h1>The tram depot at night</h1><p>Who keeps the trams running while the city sleeps.</p>',
      text: 'Who keeps the trams running while the city sleeps.',
    }),
  ).toMatch(/^250 /);

  await openSignedIn(page, user.token, '/digestCreator');
  await chooseKind(page, 'Newsletters');
  const side = sidebar(page);
  await expect(side.getByLabel('Senders')).toHaveValue('all');
  await expect(side.getByLabel('Number of newsletters')).toHaveValue('5');
  await expect(side.getByLabel('Layout')).toHaveValue('summary');
  await save(page);
  const letters = block(page, 'Newsletters');
  await expectLoaded(letters);
  await expect(letters.getByText(subject)).toBeVisible();
  await expect(letters.getByText('Field Letters · ')).toBeVisible();
  await expect(letters.getByRole('link', { name: 'Read in Digest' })).toHaveAttribute(
    'href',
    /\/newsletters\/[0-9a-f-]{36}$/,
  );

  // A digest needs 3 sources (docs/product.md §5).
  for (const kind of ['Hacker News', "Today's Date"]) {
    await chooseKind(page, kind);
    await save(page);
  }
  await page.getByLabel('Digest name').fill('Evening Letters');
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const popup = page.getByRole('dialog', { name: 'Schedule your Digest' });
  await popup.getByRole('button', { name: 'Done' }).click();
  const done = page.getByRole('dialog', { name: 'Well done!' });
  await expect(done).toBeVisible({ timeout: 20_000 });

  // Completing builds and mails the first issue: the newsletter is in it.
  const first = await waitForMail(user.email, /^Digest “Evening Letters”, issue 1$/);
  expect(first.html).toContain(subject);
  expect(first.text).toContain('Who keeps the trams running while the city sleeps.');

  // Send latest digest: nothing is new (the newsletter and Hacker News's stories came in issue 1), so
  // there is no issue 2 and the page says so (issue 16 "Every item once").
  await done.getByRole('button', { name: 'Go to Digests' }).click();
  await page.getByRole('link', { name: 'Evening Letters' }).click();
  await page.getByRole('button', { name: 'Send latest digest' }).click();
  await expect(page.getByText(NOTHING_NEW_MESSAGE, { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 2/ })).toHaveCount(0);
});
