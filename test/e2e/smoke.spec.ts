import { expect, test } from '@playwright/test';

test('the app loads, /api/health is ok and the Log in page renders at desktop and mobile widths', async ({
  page,
  request,
}, testInfo) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({
    status: 'ok',
    database: { status: 'ok' },
    queue: { status: 'ok' },
  });

  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });

  for (const [width, height] of [
    [1280, 800],
    [375, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/i);
    await expect(page.getByRole('link', { name: 'Need Help? Contact us' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`login-${width}.png`), fullPage: true });
  }
  expect(cspViolations).toEqual([]);
});

test('the Log in form shows the specified messages for bad input and sends nothing', async ({ page }) => {
  // Loading the page asks which social providers are configured (a GET its query may repeat at any time)
  // and tries to restore a session from the refresh cookie; only what the form sends afterwards counts,
  // and it must send nothing.
  // Waited for by name: on a slow CPU the one entry script runs for over 500 ms with the network idle, so
  // 'networkidle' alone can come before the app has sent them.
  const answered = (pathname: string) =>
    page.waitForResponse((response) => new URL(response.url()).pathname === pathname);
  const loadCalls = Promise.all([answered('/api/auth/refresh'), answered('/api/auth/providers')]);
  await page.goto('/logIn');
  await loadCalls;
  await page.waitForLoadState('networkidle');
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/auth/') && request.method() !== 'GET') calls.push(request.url());
  });
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Should be a valid email')).toBeVisible();
  await expect(
    page.getByText(
      'Password should have at least 8 characters contain a letter, one number and one special character',
    ),
  ).toBeVisible();
  expect(calls).toEqual([]);
});
