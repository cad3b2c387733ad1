import { expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';
import { createDigest, listSubscribers } from './support/digests';
import { waitForMail } from './support/mailbox';

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

/** The invitation page's address from the mail's text part. */
function invitationLink(text: string | undefined) {
  const link = /https?:\/\/\S+\/invitations\/[^\s"<>)?]+/.exec(text ?? '')?.[0];
  expect(link, text).toBeTruthy();
  const url = new URL(link as string);
  return url.pathname;
}

test('friends: one invitation, a page that asks before it answers, statuses the owner sees', async ({
  page,
  request,
  browser,
}, testInfo) => {
  // Verifying the owner takes a reset mail and a new sign-in before the invitations can go out.
  test.setTimeout(120_000);
  const owner = await createUser(request, { label: 'inviter', fullName: 'Ada Lovelace' });
  const digest = await createDigest(request, owner.token, { name: 'Engine Notes', scheduleType: 'weekly' });
  const [ann, bob] = ['ann', 'bob'].map((name) => `${name}-${digest.digestId.slice(0, 8)}@example.com`) as [
    string,
    string,
  ];
  const put = await request.put(`/api/digests/${digest.digestId}/subscribers`, {
    headers: { authorization: `Bearer ${owner.token.accessToken}` },
    data: { subscribers: [ann, bob] },
  });
  expect(put.status(), await put.text()).toBe(200);
  const subject = /^Digest invitation: “Ada Lovelace” invites you to “Engine Notes”$/;
  const [annMail, bobMail] = await Promise.all([waitForMail(ann, subject), waitForMail(bob, subject)]);

  // A friend opens the link (any ?answer=): the page asks, nothing changes until a button is pressed.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  const csp = recordCspViolations(visitor);
  await visitor.goto(`${invitationLink(annMail?.text)}?answer=decline`);
  await expect(
    visitor.getByRole('heading', { level: 1, name: 'Ada Lovelace invites you to Engine Notes' }),
  ).toBeVisible();
  await expect(
    visitor.getByText(/one e-mail a week to a\*\*\*@example\.com, from Ada Lovelace/),
  ).toBeVisible();
  await screenshots(visitor, testInfo, 'invitation', { widths: [1280, 375] });
  expect(await seriousViolations(visitor), 'invitation page').toEqual([]);
  expect((await listSubscribers(request, owner.token, digest.digestId)).map((s) => s.status)).toEqual([
    'invited',
    'invited',
  ]);
  await visitor.getByRole('button', { name: 'Accept' }).click();
  await expect(visitor.getByRole('status')).toHaveText(
    /^You accepted\. a\*\*\*@example\.com will receive Engine Notes/,
  );
  await screenshots(visitor, testInfo, 'invitation-accepted', { widths: [1280, 375] });

  await visitor.goto(invitationLink(bobMail?.text));
  await visitor.getByRole('button', { name: 'Decline' }).click();
  await expect(visitor.getByRole('status')).toHaveText(/^You declined\./);
  expect(await seriousViolations(visitor), 'invitation declined').toEqual([]);
  expect(csp).toEqual([]);
  await anonymous.close();

  // The owner sees each friend's status in the share dialog.
  await openSignedIn(page, owner.token, '/digests');
  await card(page, 'Engine Notes').getByRole('button', { name: 'Share Engine Notes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Engine Notes' });
  await dialog.getByRole('button', { name: 'See all subscribers' }).click();
  const all = dialog.getByRole('region', { name: /All subscribers/ });
  await expect(all.getByRole('listitem').filter({ hasText: ann })).toContainText('Subscribed');
  await expect(all.getByRole('listitem').filter({ hasText: bob })).toContainText('Declined');
  await screenshots(page, testInfo, 'share-statuses', { fullPage: false, widths: [1280, 375] });
  expect(await seriousViolations(page), 'share dialog, statuses').toEqual([]);
});

test('an invalid invitation link says so', async ({ page }) => {
  await page.goto('/invitations/not-a-real-token');
  await expect(page.getByText(/^This invitation link is not valid\./)).toBeVisible();
  expect(await seriousViolations(page), 'invalid invitation').toEqual([]);
});
