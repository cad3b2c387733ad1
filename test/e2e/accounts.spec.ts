import { expect, type Page, test } from '@playwright/test';
import {
  fetchMe,
  logIn,
  PASSWORD,
  recordApiCalls,
  recordCspViolations,
  screenshots,
  sessionOf,
  uniqueEmail,
  uniqueUsername,
} from './support/accounts';
import { pngImage } from './support/images';
import { receivedMail, verificationLink, waitForMail } from './support/mailbox';

// A fixed browser zone, so "the browser's zone" is known to the test.
test.use({ timezoneId: 'Europe/Warsaw', locale: 'en-US' });

const RECOVERY_MESSAGE =
  'If your account is active then a password reset link will be emailed to you in a few minutes. If you are still having trouble, please contact us.';
const NEW_PASSWORD = 'N3w-passphrase!';

async function logOutFromProfileMenu(page: Page) {
  await page.getByRole('button', { name: / profile menu$/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/i);
  expect(await sessionOf(page)).toBeNull();
}

test('sign up → onboarding → digests → edit profile → log out → log in → reset the password', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const csp = recordCspViolations(page);
  const calls = recordApiCalls(page);
  const email = uniqueEmail('journey');
  const fullName = 'Łucja Kowalska';
  const username = uniqueUsername('lucja');

  // Sign up: ?name= pre-fills the e-mail box.
  await page.goto(`/signup?name=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await expect(page.getByText(/at least 8 characters/)).toBeVisible();
  await screenshots(page, testInfo, 'signup');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /I agree to the Terms/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();

  // No session yet: the page says to check the inbox, and the mailed link (opened here) signs in.
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  expect(await sessionOf(page)).toBeNull();
  await screenshots(page, testInfo, 'check-inbox');
  await page.goto(await verificationLink(email));

  // Onboarding on /createDigest, with the docs/product.md §5 messages; bad input sends nothing.
  await expect(page).toHaveURL(/\/createDigest$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Digest!' })).toBeVisible();
  expect(await sessionOf(page)).toEqual({ accessToken: expect.any(String) });
  await screenshots(page, testInfo, 'onboarding');
  const before = calls.length;
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByText('To finish signing up, you must add both your full name and username.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('This field is required.', { exact: true })).toHaveCount(2);
  await screenshots(page, testInfo, 'onboarding-errors');
  await page.getByLabel('Full name').fill('R2D2 Robot');
  await page.getByLabel('Username').fill('not valid!');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Name must contain only letters', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Username must contain only letters and numbers.', { exact: true }),
  ).toBeVisible();
  await expect(
    page.getByText('To finish signing up, you must add both your full name and username.', { exact: true }),
  ).toBeHidden();
  await page.getByLabel('Full name').fill(fullName);
  await page.getByLabel('Username').fill('');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByText('To finish signing up, you must add both your full name and username.', { exact: true }),
  ).toBeVisible();
  expect(calls.slice(before).filter((call) => call.method === 'PATCH')).toEqual([]);

  await page.getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${fullName}!` })).toBeVisible();
  // The welcome page offers kinds to start with; 'Create digest' opens the builder (test/e2e/builder.spec.ts).
  await expect(page.getByRole('button', { name: 'Create digest' })).toBeEnabled();
  await screenshots(page, testInfo, 'welcome');
  // The onboarding saved the browser's time zone with the names.
  const onboarded = await fetchMe(page, request);
  expect(onboarded).toMatchObject({ fullName, username, timezone: { timezone: 'Europe/Warsaw' } });

  // The empty Digests page.
  await page.getByRole('link', { name: 'Go to my Digests' }).click();
  await expect(page).toHaveURL(/\/digests$/);
  await expect(page.getByRole('heading', { level: 1, name: `${fullName} Digests` })).toBeVisible();
  await expect(page.getByText('Nothing here yet.', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Click the "Create Digest" button to get started.', { exact: true }),
  ).toBeVisible();
  await screenshots(page, testInfo, 'digests-empty');

  // Edit profile through the profile menu.
  await page.getByRole('button', { name: `${fullName} profile menu` }).click();
  await expect(page.getByRole('menu')).toContainText(`@${username}`);
  // Phones have no profile menu: they use /menu (screens.spec.ts).
  await screenshots(page, testInfo, 'profile-menu', { fullPage: false, widths: [1280] });
  await page.getByRole('menuitem', { name: 'Edit profile' }).click();
  await expect(page).toHaveURL(/\/editProfile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  await expect(page.getByLabel('Full Name')).toHaveValue(fullName);
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expect(page.getByLabel('Timezone')).toHaveValue('Europe/Warsaw');
  await screenshots(page, testInfo, 'edit-profile');

  // Timezone and bio: only the changed fields are sent.
  await page.getByLabel('Timezone').selectOption('America/New_York');
  await page.getByLabel('Bio').fill('I read everything twice.');
  const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith('/api/users/me'));
  await page.getByRole('button', { name: 'Save' }).click();
  const sent = (await patch).postDataJSON() as Record<string, unknown>;
  expect(Object.keys(sent).sort()).toEqual(['bio', 'timezone']);
  expect(sent.timezone).toMatchObject({ timezone: 'America/New_York', offset: expect.any(Number) });
  await expect(page.getByText('Your profile has been saved.', { exact: true })).toBeVisible();
  await expect.poll(async () => (await fetchMe(page, request)).bio).toBe('I read everything twice.');
  expect(await fetchMe(page, request)).toMatchObject({ timezone: { timezone: 'America/New_York' } });

  // Photo: choose, crop (ctrl + wheel zooms), upload another, crop & set.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Upload photo' })).toBeVisible();
  await expect(dialog.getByText('Click to upload')).toBeVisible();
  await screenshots(page, testInfo, 'photo-upload', { fullPage: false });
  const photoInput = dialog.locator('input[type="file"]');
  await photoInput.setInputFiles(await pngImage(page, 640, 400));
  await expect(dialog.getByRole('heading', { name: 'Crop and set photo' })).toBeVisible();
  const zoom = dialog.getByRole('slider', { name: 'Zoom' });
  await expect(zoom).toHaveValue('1');
  const cropBox = dialog.locator('.reactEasyCrop_Container');
  await cropBox.hover();
  await page.mouse.wheel(0, 200);
  await expect(zoom).toHaveValue('1');
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -200);
  await page.keyboard.up('Control');
  await expect.poll(async () => Number(await zoom.inputValue())).toBeGreaterThan(1);
  // docs/product.md §9: a 160 px circle on larger screens, 110 px on phones.
  await screenshots(page, testInfo, 'photo-crop', {
    fullPage: false,
    atWidth: (width) =>
      expect(dialog.locator('.reactEasyCrop_CropAreaRound')).toHaveCSS(
        'width',
        width > 600 ? '160px' : '110px',
      ),
  });
  await dialog.getByRole('button', { name: 'Upload another image' }).click();
  await expect(dialog.getByRole('heading', { name: 'Upload photo' })).toBeVisible();
  await photoInput.setInputFiles(await pngImage(page, 300, 300));
  const upload = page.waitForRequest(
    (r) => r.method() === 'PATCH' && r.url().endsWith('/api/users/me/photo'),
  );
  await dialog.getByRole('button', { name: 'Crop & Set Avatar' }).click();
  const uploadRequest = await upload;
  expect(uploadRequest.headers()['content-type']).toMatch(/^multipart\/form-data/);
  await expect(dialog).toBeHidden();
  const photoUrl = (await fetchMe(page, request)).profileImg as string;
  expect(photoUrl).toEqual(expect.any(String));
  const photo = await request.get(photoUrl);
  expect(photo.status()).toBe(200);
  expect(photo.headers()['content-type']).toBe('image/png');
  await expect(page.locator(`main img[src="${photoUrl}"]`)).toBeVisible();
  await screenshots(page, testInfo, 'edit-profile-photo');

  // Remove: Cancel keeps it, Remove deletes it.
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure you remove the photo?' });
  await expect(confirm).toBeVisible();
  await screenshots(page, testInfo, 'photo-remove-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect((await fetchMe(page, request)).profileImg).toBe(photoUrl);
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.locator('main img')).toHaveCount(0);
  expect((await fetchMe(page, request)).profileImg).toBeNull();

  // Log out, log in.
  await logOutFromProfileMenu(page);
  await logIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/digests$/);

  // Forgot password → recover message → 'Click to resend' → the e-mail → reset.
  await logOutFromProfileMenu(page);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgetPassword$/);
  await screenshots(page, testInfo, 'forgot-password');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  const forgot = page.waitForRequest((r) => r.url().endsWith('/api/auth/password/forgot'));
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  expect((await forgot).headers()['x-requested-with']).toBe(new URL(page.url()).origin);
  await expect(page).toHaveURL(/\/recover-message$/);
  await expect(page.getByText(RECOVERY_MESSAGE, { exact: true })).toBeVisible();
  await screenshots(page, testInfo, 'recover-message');
  await waitForMail(email, /reset/i);
  await page.getByRole('button', { name: 'Click to resend' }).click();
  await expect(page.getByText('We sent the link again.', { exact: true })).toBeVisible();
  // The resent mail carries a new link: use the newest.
  await expect
    .poll(
      async () =>
        (await receivedMail()).filter((m) => m.to.includes(email) && /reset/i.test(m.mail.subject ?? ''))
          .length,
    )
    .toBe(2);
  const mail = await waitForMail(email, /reset/i);
  const link = mail.text?.match(/https?:\/\/\S*reset-password\?recoveryToken=[^\s)\]>]+/)?.[0];
  expect(link, mail.text).toBeDefined();
  const resetPath = `${new URL(link as string).pathname}${new URL(link as string).search}`;

  await page.goto(resetPath);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await screenshots(page, testInfo, 'reset-password');
  const beforeReset = calls.length;
  await page.getByLabel('New password', { exact: true }).fill('weakpassword');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(
    page.getByText('Password should be at least 8 characters with one letter, one number, and one symbol.', {
      exact: true,
    }),
  ).toBeVisible();
  expect(calls.slice(beforeReset)).toEqual([]);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/logIn$/);

  // The old password no longer works; the new one does.
  await logIn(page, email, PASSWORD);
  await expect(page.getByText('Wrong e-mail or password.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/logIn$/);
  await logIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/digests$/);

  // The used link no longer works.
  await logOutFromProfileMenu(page);
  await page.goto(resetPath);
  await page.getByLabel('New password', { exact: true }).fill('An0ther-secret!');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The link may have expired' })).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password/);
  await logIn(page, email, 'An0ther-secret!');
  await expect(page.getByText('Wrong e-mail or password.', { exact: true })).toBeVisible();

  expect(csp).toEqual([]);
});
