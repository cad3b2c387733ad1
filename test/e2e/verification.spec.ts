import { expect, type Page, test } from '@playwright/test';
import {
  createUser,
  fetchMe,
  openSignedIn,
  PASSWORD,
  screenshots,
  sessionOf,
  testClientAddress,
  uniqueEmail,
} from './support/accounts';
import { seriousViolations } from './support/axe';
import { receivedMail, verificationLink, waitForMail } from './support/mailbox';

test.beforeEach(async ({ page }) => {
  // Sign-ups are limited per client address: each test signs up from its own.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': testClientAddress() });
});

async function signUpInPage(page: Page, email: string) {
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /I agree to the Terms/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
}

test('sign-up says to check the inbox, the same for a taken address; signed in before verifying, a banner offers Resend', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('verify');
  await signUpInPage(page, email);
  await expect(
    page.getByText(
      'Check your inbox: we sent you a link to confirm your e-mail address. Follow it to finish signing up.',
    ),
  ).toBeVisible();
  expect(await sessionOf(page)).toBeNull();
  await screenshots(page, testInfo, 'check-inbox', { widths: [1280, 375] });
  expect(await seriousViolations(page), 'check your inbox').toEqual([]);
  await waitForMail(email, /^Confirm your e-mail address for Digest$/);

  // A taken address gets the same screen; its owner gets a note, not a link.
  const taken = await createUser(request, { label: 'taken' });
  await signUpInPage(page, taken.email);
  await waitForMail(taken.email, /^Someone tried to sign up to Digest with your address$/);

  // Signing in with the password before verifying works, with a banner and Resend.
  await page.goto('/logIn');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/createDigest$/);
  await page.getByLabel('Full name').fill('Vera Verify');
  await page.getByLabel('Username').fill(`vera${Date.now()}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.goto('/digests');
  const banner = page.getByRole('region', { name: 'Verify your address' });
  await expect(banner).toContainText(`Follow the link we sent to ${email}`);
  await screenshots(page, testInfo, 'verify-banner', { widths: [1280, 375] });
  expect(await seriousViolations(page), 'banner').toEqual([]);
  const before = (await receivedMail()).filter(({ to }) => to.includes(email)).length;
  await banner.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText(`We sent a new confirmation link to ${email}.`)).toBeVisible();
  await expect
    .poll(async () => (await receivedMail()).filter(({ to }) => to.includes(email)).length)
    .toBe(before + 1);

  // The newest link confirms the address; the banner goes.
  await page.goto(await verificationLink(email));
  await expect(page).toHaveURL(/\/digests$/);
  await expect(page.getByText('Your e-mail address is confirmed.')).toBeVisible();
  await expect(banner).toHaveCount(0);
  expect((await fetchMe(page, request)).confirmed).toBe(true);
});

test('a used or made-up link says so, and opening the page alone verifies nothing', async ({
  page,
}, testInfo) => {
  await page.goto('/verify-email?token=made-up-token');
  await expect(page.getByRole('heading', { name: 'We could not confirm your address' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'This confirmation link is invalid, was already used or has expired. Sign in and ask for a new one.',
  );
  await screenshots(page, testInfo, 'verify-failed', { widths: [1280, 375] });
  expect(await seriousViolations(page), 'verify failed').toEqual([]);
});

test('without SMTP_URL the check-your-inbox screen says the mail went to the outbox', async ({
  page,
}, testInfo) => {
  await page.route('**/api/site', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), mailTransport: 'outbox' } });
  });
  await signUpInPage(page, uniqueEmail('outbox'));
  await expect(
    page.getByText(/it was written to the outbox folder \(DATA_DIR\/outbox\) on the server/),
  ).toBeVisible();
  await expect(page.getByText(/token/i)).toHaveCount(0);
  await screenshots(page, testInfo, 'check-inbox-outbox', { widths: [1280, 375] });
});

test('an e-mail change waits for the new address, with Resend and Cancel, and needs the password', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await createUser(request, { label: 'mover' });
  await openSignedIn(page, user.token, '/editProfile');
  const form = page.getByRole('form', { name: 'Change e-mail address' });
  const newEmail = uniqueEmail('moved');
  await form.getByLabel('New e-mail address').fill(newEmail);
  await form.getByLabel('Your password').fill('Wr0ng-password!');
  await form.getByRole('button', { name: 'Change e-mail' }).click();
  await expect(form.getByText('Current password is incorrect.')).toBeVisible();

  await form.getByLabel('Your password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change e-mail' }).click();
  const pending = page.getByRole('status').filter({ hasText: 'Waiting for confirmation of' });
  await expect(pending).toContainText(newEmail);
  await expect(page.getByLabel('Email address')).toHaveValue(user.email);
  await screenshots(page, testInfo, 'email-pending', { widths: [1280, 375] });
  expect(await seriousViolations(page), 'pending e-mail').toEqual([]);
  const notice = await waitForMail(user.email, /^Your Digest e-mail address is being changed$/);
  expect(notice.text).toContain('If this wasn’t you, reset your password');

  await pending.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText(`We sent a new confirmation link to ${newEmail}.`)).toBeVisible();
  await pending.getByRole('button', { name: 'Cancel change' }).click();
  await expect(pending).toHaveCount(0);

  // Asked again and confirmed: the address changes.
  await form.getByLabel('New e-mail address').fill(newEmail);
  await form.getByLabel('Your password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change e-mail' }).click();
  await expect(pending).toBeVisible();
  await page.goto(await verificationLink(newEmail, /^Confirm your new e-mail address for Digest$/));
  await expect(page).toHaveURL(/\/digests$/);
  expect((await fetchMe(page, request)).email).toBe(newEmail);
});
