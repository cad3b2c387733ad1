import { expect, test } from '@playwright/test';
import {
  createUser,
  fetchMe,
  openSignedIn,
  PASSWORD,
  recordApiCalls,
  screenshots,
  sessionOf,
  uniqueUsername,
} from './support/accounts';
import { seriousViolations } from './support/axe';
import { pngImage } from './support/images';

test('the password block: specified messages inline and nothing sent for bad input; a good change clears it', async ({
  page,
  request,
}, testInfo) => {
  const user = await createUser(request, { label: 'pw' });
  await openSignedIn(page, user.token, '/editProfile');
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  const calls = recordApiCalls(page);
  const current = page.getByLabel('Current password');
  const next = page.getByLabel('New Password', { exact: true });
  const confirm = page.getByLabel('Confirm Password', { exact: true });
  const save = page.getByRole('button', { name: 'Save' });

  // docs/product.md §5/§8: at least 8 characters, as an inline alert under the field.
  await current.fill('short');
  await next.fill('tiny');
  await confirm.fill('tiny');
  await save.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Password should have at least 8 characters' }),
  ).toHaveCount(3);
  await screenshots(page, testInfo, 'edit-profile-password-errors');

  // New equal to the confirmation; old and new both given.
  await current.fill('');
  await next.fill('L0nger-secret!');
  await confirm.fill('L0nger-secret?');
  await save.click();
  await expect(page.getByText('Enter your current password to change it', { exact: true })).toBeVisible();
  await expect(
    page.getByText('New Password and Confirm Password should match', { exact: true }),
  ).toBeVisible();
  // The log-in rule applies to the new password too.
  await current.fill(PASSWORD);
  await next.fill('longenough');
  await confirm.fill('longenough');
  await save.click();
  await expect(
    page.getByText('Password should be at least 8 characters with one letter, one number, and one symbol.', {
      exact: true,
    }),
  ).toBeVisible();
  expect(calls).toEqual([]);

  // The server refuses a wrong current password with its message.
  await current.fill('Wr0ng-password!');
  await next.fill('L0nger-secret!');
  await confirm.fill('L0nger-secret!');
  await save.click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .first(),
  ).toBeVisible();
  await expect(current).toHaveValue('Wr0ng-password!');
  expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['PATCH /api/users/me/password']);

  // A good change: only the password call, then the three fields clear; this session stays.
  await current.fill(PASSWORD);
  await save.click();
  await expect(page.getByText('Your profile has been saved.', { exact: true })).toBeVisible();
  await expect(current).toHaveValue('');
  await expect(next).toHaveValue('');
  await expect(confirm).toHaveValue('');
  expect(calls.filter((call) => call.path === '/api/users/me' && call.method === 'PATCH')).toEqual([]);
  const login = await request.post('/api/auth/signin/email', {
    data: { email: user.email, password: 'L0nger-secret!' },
  });
  expect(login.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
});

test("the username: its rule and the server's refusal inline, the consequence said before Save, then the new name", async ({
  page,
  request,
}, testInfo) => {
  const holder = await createUser(request, { label: 'holder' });
  const user = await createUser(request, { label: 'rename', fullName: 'Ada Lovelace' });
  await openSignedIn(page, user.token, '/editProfile');
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  const { newsletterEmail } = (await fetchMe(page, request)) as { newsletterEmail: string };
  const domain = newsletterEmail.split('@')[1];
  const username = page.getByLabel('Username', { exact: true });
  const save = page.getByRole('button', { name: 'Save' });
  await expect(username).toHaveValue(user.username ?? '');
  await expect(
    page.getByText(`Letters and numbers only. Your newsletter address is ${newsletterEmail}.`, {
      exact: true,
    }),
  ).toBeVisible();
  const calls = recordApiCalls(page);

  // The shared rule, in the browser: nothing is sent.
  await username.fill('ada lovelace');
  await save.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Username must contain only letters and numbers.' }),
  ).toBeVisible();
  await username.fill('');
  await save.click();
  await expect(page.getByRole('alert').filter({ hasText: 'This field is required.' })).toBeVisible();
  expect(calls).toEqual([]);

  // Another account's name, in another case: the server's message under the field, and nothing changes.
  await username.fill((holder.username ?? '').toUpperCase());
  await save.click();
  await expect(page.getByRole('alert').filter({ hasText: 'This username is already taken.' })).toBeVisible();
  await expect(username).toBeFocused();
  expect((await fetchMe(page, request)).username).toBe(user.username);

  // A free name: the consequence is said while it is typed, then it is saved.
  const next = uniqueUsername('Renamed');
  await username.fill(next);
  await expect(
    page.getByText(
      `Your newsletter address will change to ${next.toLowerCase()}@${domain}, and your public page moves to ` +
        `/user/${next}. Nobody else can take @${user.username} for 30 days.`,
      { exact: true },
    ),
  ).toBeVisible();
  await screenshots(page, testInfo, 'edit-profile-username-change');
  await save.click();
  await expect(page.getByText('Your profile has been saved.', { exact: true })).toBeVisible();
  expect(await fetchMe(page, request)).toMatchObject({
    username: next,
    newsletterEmail: `${next.toLowerCase()}@${domain}`,
  });
  await expect(
    page.getByText(`Letters and numbers only. Your newsletter address is ${next.toLowerCase()}@${domain}.`, {
      exact: true,
    }),
  ).toBeVisible();
});

test('photo checks happen in the browser: type, size and dimensions, with nothing uploaded', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'photo' });
  await openSignedIn(page, user.token, '/editProfile');
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  const calls = recordApiCalls(page);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload photo' });
  const input = dialog.locator('input[type="file"]');
  await expect(input).toHaveAttribute('accept', /\.svg/);

  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(dialog.getByRole('alert')).toHaveText('Choose an SVG, PNG, JPG or GIF image.');
  await input.setInputFiles(await pngImage(page, 60, 200, 'narrow.png'));
  await expect(dialog.getByRole('alert')).toHaveText(
    'This image is too small: it must be at least 100×100 pixels.',
  );
  await input.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(dialog.getByRole('alert')).toHaveText('This image is larger than 5 MB. Choose a smaller one.');
  await input.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
  await expect(dialog.getByRole('alert')).toHaveText('This file could not be opened as an image.');

  // Drag and drop works like the picker.
  const png = await pngImage(page, 200, 150);
  const dataTransfer = await page.evaluateHandle((base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
    return transfer;
  }, png.buffer.toString('base64'));
  await dialog.getByText('Click to upload').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('dialog', { name: 'Crop and set photo' })).toBeVisible();
  expect(calls).toEqual([]);

  // Escape closes the dialog without uploading.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(calls).toEqual([]);
  expect((await fetchMe(page, request)).profileImg).toBeNull();
});

test('delete account: Cancel keeps it, Delete removes it and signs out', async ({
  page,
  request,
}, testInfo) => {
  const user = await createUser(request, { label: 'delete' });
  await openSignedIn(page, user.token, '/editProfile');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const confirm = page.getByRole('alertdialog', {
    name: 'Are you sure that you want to delete your account?',
  });
  await expect(confirm).toBeVisible();
  // The dialog asks for the password: a stolen session alone cannot delete the account.
  await expect(confirm.getByLabel('Your password')).toBeFocused();
  await screenshots(page, testInfo, 'delete-account-confirm', { fullPage: false });
  expect(await seriousViolations(page), 'delete account dialog').toEqual([]);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('button', { name: 'Delete account' })).toBeFocused();

  // A wrong password: the server's message in the dialog, and the account stays.
  await page.getByRole('button', { name: 'Delete account' }).click();
  await confirm.getByLabel('Your password').fill('Wr0ng-password!');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByRole('alert')).toHaveText('Current password is incorrect.');
  await screenshots(page, testInfo, 'delete-account-wrong-password', { fullPage: false });
  expect(await sessionOf(page)).not.toBeNull();

  await confirm.getByLabel('Your password').fill(PASSWORD);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/login$/i);
  expect(await sessionOf(page)).toBeNull();
  const login = await request.post('/api/auth/signin/email', {
    data: { email: user.email, password: PASSWORD },
  });
  expect(login.status()).toBe(401);
});

test('a user who signs in with a social account cannot edit the e-mail address or the password', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'social' });
  await openSignedIn(page, user.token, '/editProfile');
  // Pretend the account came from Google: the page follows `method`.
  await page.route('**/api/users/me', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const body = (await response.json()) as { user: Record<string, unknown> };
    await route.fulfill({ response, json: { user: { ...body.user, method: 'google' } } });
  });
  await page.reload();
  await expect(page.getByLabel('Email address')).toHaveAttribute('readonly', '');
  await expect(page.getByText(/You sign in with Google/)).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await expect(page.getByLabel('New Password', { exact: true })).toHaveCount(0);
});
