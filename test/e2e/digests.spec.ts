import { expect, type Page, test } from '@playwright/test';
import { createUser, logIn, openSignedIn, recordCspViolations, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';
import {
  auth,
  createDigest,
  createDraft,
  getDigest,
  listSubscribers,
  turnOnPublicLink,
} from './support/digests';
import { fakesOrigin } from './support/fakes';
import { waitForMail } from './support/mailbox';

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

test('the Digests page: cards, pause with a rollback when refused, duplicate, delete, drafts, detail', async ({
  page,
  request,
}, testInfo) => {
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'cards', fullName: 'Grace Hopper' });
  const daily = await createDigest(request, user.token, { name: 'Morning Brief' });
  const weekly = await createDigest(request, user.token, {
    name: 'Weekly Roundup',
    scheduleType: 'weekly',
    weekDay: 1,
    time: '18:30',
  });
  await createDigest(request, user.token, {
    name: 'Monthly Money',
    scheduleType: 'monthly',
    monthDay: 15,
    time: '09:05',
    subscribers: ['one@example.com', 'two@example.com'],
  });
  await createDraft(request, user.token, { name: 'Half-made', sources: [{ type: 'HACKER_NEWS' }] });

  await openSignedIn(page, user.token, '/digests');
  await expect(page.getByRole('heading', { level: 1, name: 'Grace Hopper Digests' })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(4);

  // docs/product.md §2 card: name, schedule type, weekday or month day, time (12-hour), source icons, subscribers.
  const morning = card(page, 'Morning Brief');
  await expect(morning.getByText('Daily', { exact: true })).toBeVisible();
  await expect(morning.getByText('7:00 am', { exact: true })).toBeVisible();
  await expect(morning.getByText('0 subscribers', { exact: true })).toBeVisible();
  const icons = morning.getByRole('list', { name: 'Sources: 3' });
  await expect(icons.getByRole('listitem')).toHaveText(["Today's date", 'Hacker News', 'Weather']);
  const roundup = card(page, 'Weekly Roundup');
  await expect(roundup.getByText('Weekly', { exact: true })).toBeVisible();
  await expect(roundup.getByText('Monday', { exact: true })).toBeVisible();
  await expect(roundup.getByText('6:30 pm', { exact: true })).toBeVisible();
  const money = card(page, 'Monthly Money');
  await expect(money.getByText('15th of the month', { exact: true })).toBeVisible();
  await expect(money.getByText('9:05 am', { exact: true })).toBeVisible();
  await expect(money.getByText('2 subscribers', { exact: true })).toBeVisible();
  for (const name of ['Morning Brief', 'Weekly Roundup', 'Monthly Money']) {
    await expect(card(page, name).getByRole('switch', { name: 'Active' })).toBeChecked();
    await expect(card(page, name).getByRole('button', { name: `Share ${name}` })).toBeVisible();
  }
  // Draft card: 'Draft' label, name, source icons, Edit, Delete Draft.
  const draft = card(page, 'Half-made');
  await expect(draft.getByText('Draft', { exact: true })).toBeVisible();
  await expect(draft.getByRole('list', { name: 'Sources: 1' })).toBeVisible();
  await expect(draft.getByRole('button', { name: 'Edit Half-made' })).toBeVisible();
  await expect(draft.getByRole('button', { name: 'Delete Draft' })).toBeVisible();
  await screenshots(page, testInfo, 'digests');
  expect(await seriousViolations(page), '/digests').toEqual([]);

  // Pause: the switch flips at once and the server keeps it.
  await morning.getByRole('switch', { name: 'Active' }).click();
  await expect(morning.getByRole('switch', { name: 'Active' })).not.toBeChecked();
  // The switch's label, and the next-issue line once the server's answer is in.
  await expect(morning.getByText('Paused', { exact: true })).toHaveCount(2);
  await expect.poll(async () => (await getDigest(request, user.token, daily.digestId)).active).toBe(false);

  // The server refuses: the switch flips, then back, and the error is shown (docs/product.md §4, §8).
  let refused = 0;
  // The refusal is held until the test has seen the switch flip (a fixed delay was too short on a busy machine).
  let answerRefusal = () => {};
  const refusalHeld = new Promise<void>((resolve) => {
    answerRefusal = resolve;
  });
  const weeklyUrl = (url: URL) => url.pathname === `/api/digests/${weekly.digestId}`;
  await page.route(weeklyUrl, async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    refused += 1;
    await refusalHeld;
    return route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The Digest could not be paused. Please try again.', code: 'E2E' }),
    });
  });
  const roundupSwitch = roundup.getByRole('switch', { name: 'Active' });
  await roundupSwitch.click();
  await expect(roundupSwitch).not.toBeChecked();
  await expect(roundup.getByText('Paused', { exact: true })).toBeVisible();
  answerRefusal();
  await expect(page.getByText('The Digest could not be paused. Please try again.')).toBeVisible();
  await expect(roundupSwitch).toBeChecked();
  await expect(roundup.getByText('Active', { exact: true })).toBeVisible();
  expect(refused).toBe(1);
  await page.unroute(weeklyUrl);
  expect((await getDigest(request, user.token, weekly.digestId)).active).toBe(true);

  // Duplicate: a paused copy appears.
  await morning.getByRole('button', { name: 'More actions for Morning Brief' }).click();
  await screenshots(page, testInfo, 'digest-menu', { fullPage: false, widths: [1280] });
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  const copy = card(page, 'Morning Brief (copy)');
  await expect(copy).toBeVisible();
  await expect(copy.getByRole('switch', { name: 'Active' })).not.toBeChecked();
  await expect(page.getByRole('article')).toHaveCount(5);

  // Delete Digest asks first; Cancel keeps it, Delete removes it.
  await copy.getByRole('button', { name: 'More actions for Morning Brief (copy)' }).click();
  await page.getByRole('menuitem', { name: 'Delete Digest' }).click();
  const confirm = page.getByRole('alertdialog', {
    name: 'Are you sure that you want to delete Morning Brief (copy)?',
  });
  await expect(confirm).toBeVisible();
  await screenshots(page, testInfo, 'delete-digest-confirm', { fullPage: false });
  expect(await seriousViolations(page), 'delete confirmation').toEqual([]);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(copy).toBeVisible();
  await copy.getByRole('button', { name: 'More actions for Morning Brief (copy)' }).click();
  await page.getByRole('menuitem', { name: 'Delete Digest' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(copy).toBeHidden();
  await expect(page.getByText('Your Digest has been deleted.')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(4);

  // Delete Draft asks too.
  await draft.getByRole('button', { name: 'Delete Draft' }).click();
  const confirmDraft = page.getByRole('alertdialog', {
    name: 'Are you sure that you want to delete the draft Half-made?',
  });
  await confirmDraft.getByRole('button', { name: 'Delete' }).click();
  // While the dialog is open the page behind it is hidden from the accessibility tree, so the card counts as
  // hidden at once; the dialog closes only once the server has answered.
  await expect(confirmDraft).toBeHidden();
  await expect(draft).toBeHidden();
  await expect(page.getByRole('article')).toHaveCount(3);
  const drafts = await request.get('/api/digests/drafts', { headers: auth(user.token) });
  expect(((await drafts.json()) as { digests: unknown[] }).digests).toEqual([]);

  // Open a digest from its card: the detail page (docs/product.md §2).
  await card(page, 'Weekly Roundup').getByRole('link', { name: 'Weekly Roundup' }).click();
  await expect(page).toHaveURL(new RegExp(`/digests/${weekly.digestId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Weekly Roundup' })).toBeVisible();
  await expect(page.getByText('Weekly on Monday at 6:30 pm', { exact: true })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Active' })).toBeChecked();
  await expect(
    page.getByText('Your Digest will display here once it is sent to you at the scheduled time.', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(page).toHaveTitle('Weekly Roundup · Digest');
  await screenshots(page, testInfo, 'digest-detail');
  expect(await seriousViolations(page), 'digest detail').toEqual([]);
  // The detail page pauses too.
  // The switch's label and the next-issue line both say so once the server's answer is in.
  await page.getByRole('switch', { name: 'Active' }).click();
  await expect(page.getByRole('switch', { name: 'Active' })).not.toBeChecked();
  await expect(page.getByText('Paused', { exact: true })).toHaveCount(2);
  await expect.poll(async () => (await getDigest(request, user.token, weekly.digestId)).active).toBe(false);

  // Edit opens the builder with the digest.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(page.getByLabel('Digest name')).toHaveValue('Weekly Roundup');
  await expect(page.getByTestId('source-block')).toHaveCount(3);

  // An unknown digest says so.
  await page.goto('/digests/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { level: 1, name: 'Digest not found' })).toBeVisible();
  expect(csp).toEqual([]);
});

test('sharing: two friends get the invitation, the public link is copied, a friend unsubscribes', async ({
  page,
  request,
  browser,
  baseURL,
}, testInfo) => {
  // Verifying the owner (a reset mail and a new sign-in) comes on top of three dialogs shot at three widths.
  test.setTimeout(120_000);
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'sharer', fullName: 'Ada Lovelace' });
  const digest = await createDigest(request, user.token, { name: 'Engine Notes' });
  const [ann, bob, cid, dan] = ['ann', 'bob', 'cid', 'dan'].map(
    (name) => `${name}-${digest.digestId.slice(0, 8)}@example.com`,
  ) as [string, string, string, string];

  await openSignedIn(page, user.token, '/digests');
  const engine = card(page, 'Engine Notes');
  await engine.getByRole('button', { name: 'Share Engine Notes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Engine Notes' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Private' })).toHaveAttribute('aria-selected', 'true');
  const input = dialog.getByLabel("Friend's email");
  await expect(input).toBeFocused();
  const plus = dialog.getByRole('button', { name: 'Add email to the list' });

  // Nothing pending yet (docs/product.md §4), then a bad address (docs/product.md §5).
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByText('Click the + sign to add the email to the list first.')).toBeVisible();
  await input.fill('not-an-email');
  await plus.click();
  await expect(page.getByText('not-an-email should be a valid email!', { exact: true })).toBeVisible();
  await expect(input).toHaveValue('not-an-email');

  // Valid addresses go to the FRONT of the pending list and the input clears; the first 3 are listed.
  for (const email of [ann, bob, cid]) {
    await input.fill(email);
    await plus.click();
    await expect(input).toHaveValue('');
  }
  await input.fill(dan.toUpperCase());
  await input.press('Enter');
  const pending = dialog.getByRole('region', { name: 'Emails to add' });
  await expect(pending.getByRole('listitem')).toHaveText([dan, cid, bob]);
  await expect(pending.getByText('and 1 more')).toBeVisible();
  await expect(dialog.getByText('Subscribers: 0')).toBeVisible();
  await screenshots(page, testInfo, 'share-private', { fullPage: false });
  expect(await seriousViolations(page), 'share dialog, private').toEqual([]);
  // Pending entries are removable.
  await pending.getByRole('button', { name: `Remove ${dan} from the list` }).click();
  await pending.getByRole('button', { name: `Remove ${cid} from the list` }).click();
  await expect(pending.getByRole('listitem')).toHaveText([bob, ann]);

  // Share: the server's message, the digests reload, the dialog closes.
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByText('Your Digest is shared with 2 friends.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(engine.getByText('2 subscribers', { exact: true })).toBeVisible();

  // Both friends get the invitation through the real SMTP server; its token also unsubscribes.
  const notices = await Promise.all(
    [ann, bob].map((email) =>
      waitForMail(email, /^Digest invitation: “Ada Lovelace” invites you to “Engine Notes”$/),
    ),
  );
  const unsubscribeLinks = notices.map((mail) => {
    const link = /https?:\/\/\S+\/invitations\/[^\s"<>)?]+/
      .exec(mail.text ?? '')?.[0]
      ?.replace('/invitations/', '/unsubscribe/');
    expect(link, mail.text).toBeTruthy();
    return link as string;
  });

  // Public tab: the digest is private until the owner turns the link on (docs/design.md §10); it says
  // what a public page shows, then Copy link copies {origin}/digests/share/{random token} and says Copied.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await expect(engine.getByText('Private', { exact: true })).toBeVisible();
  await engine.getByRole('button', { name: 'Share Engine Notes' }).click();
  await dialog.getByRole('tab', { name: 'Public' }).click();
  await expect(
    dialog.getByText('This Digest is private: only you and the friends you send it to can read it.'),
  ).toBeVisible();
  await expect(
    dialog.getByText(
      'Blocks from your connected accounts (Google Calendar, Stripe, X) never appear on the public page: it shows their title and "Private" instead.',
    ),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
  await screenshots(page, testInfo, 'share-public-off', { fullPage: false });
  expect(await seriousViolations(page), 'share dialog, public link off').toEqual([]);
  await dialog.getByRole('button', { name: 'Turn on the public link' }).click();
  await expect(
    dialog.getByText(/^Anyone with the link can read every issue of this Digest, no account needed/),
  ).toBeVisible();
  const linkField = dialog.getByLabel('Link to the public page');
  await expect(linkField).toHaveValue(new RegExp(`^${baseURL}/digests/share/[A-Za-z0-9_-]{43}$`));
  const publicLink = await linkField.inputValue();
  expect(publicLink).not.toContain(digest.digestId);
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicLink);
  await screenshots(page, testInfo, 'share-public', { fullPage: false });
  expect(await seriousViolations(page), 'share dialog, public').toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(engine.getByText('Public', { exact: true })).toBeVisible();

  // An anonymous browser opens the link. No issue has been built yet (building is a later issue), so
  // the page says the Digest is not available, with the default title and the social-preview tags.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  const visitorCsp = recordCspViolations(visitor);
  const shareCalls: { auth: string | undefined; status: number }[] = [];
  visitor.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/digests/share/')) {
      shareCalls.push({ auth: response.request().headers().authorization, status: response.status() });
    }
  });
  await visitor.goto(publicLink);
  await expect(visitor.getByRole('heading', { name: 'Digest not found' })).toBeVisible();
  await expect(
    visitor.getByText('This Digest does not exist, is not public, or no issue of it has been sent yet.', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(visitor).toHaveTitle('Shared Digest');
  // Nothing sent yet: the link preview, in the page's HTML, is the app's generic one.
  await expect(visitor.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Digest');
  await expect(visitor.locator('meta[property="og:description"]')).toHaveAttribute(
    'content',
    'Digest: personal newsletters built from the things you follow.',
  );
  expect(shareCalls).toEqual([{ auth: undefined, status: 404 }]);
  await screenshots(visitor, testInfo, 'public-page-not-sent');
  expect(await seriousViolations(visitor), 'public page, not sent').toEqual([]);

  // Turned off, then on again: a new link, and the old one is dead like any unknown one.
  await engine.getByRole('button', { name: 'Share Engine Notes' }).click();
  await dialog.getByRole('tab', { name: 'Public' }).click();
  await dialog.getByRole('button', { name: 'Turn off the public link' }).click();
  await expect(
    dialog.getByText('This Digest is private: only you and the friends you send it to can read it.'),
  ).toBeVisible();
  await expect(dialog.getByLabel('Link to the public page')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Turn on the public link' }).click();
  await expect(dialog.getByLabel('Link to the public page')).not.toHaveValue(publicLink);
  await expect(dialog.getByLabel('Link to the public page')).toHaveValue(/\/digests\/share\/[\w-]{43}$/);
  await page.keyboard.press('Escape');
  const oldToken = new URL(publicLink).pathname.split('/').pop();
  expect((await anonymous.request.get(`/api/digests/share/${oldToken}`)).status()).toBe(404);
  expect((await anonymous.request.get(`/api/digests/share/${digest.digestId}`)).status()).toBe(404);

  // A friend unsubscribes from the link in the mail: opening it changes nothing, the button does.
  await visitor.goto(unsubscribeLinks[0] as string);
  await expect(visitor.getByRole('heading', { name: 'Unsubscribe from Engine Notes?' })).toBeVisible();
  await screenshots(visitor, testInfo, 'unsubscribe-confirm');
  expect(await seriousViolations(visitor), 'unsubscribe confirmation').toEqual([]);
  expect(
    (await listSubscribers(request, user.token, digest.digestId)).map((s) => [s.email, s.status]),
  ).toEqual(
    expect.arrayContaining([
      [ann, 'invited'],
      [bob, 'invited'],
    ]),
  );
  await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(visitor.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await screenshots(visitor, testInfo, 'unsubscribe-done');
  expect(await seriousViolations(visitor), 'unsubscribed').toEqual([]);
  expect(visitorCsp).toEqual([]);
  await anonymous.close();

  // The owner sees who unsubscribed.
  await page.reload();
  await expect(engine.getByText('1 subscriber', { exact: true })).toBeVisible();
  await engine.getByRole('button', { name: 'Share Engine Notes' }).click();
  await expect(dialog.getByText('Subscribers: 1')).toBeVisible();
  await dialog.getByRole('button', { name: 'See all subscribers' }).click();
  const all = dialog.getByRole('region', { name: /All subscribers/ });
  await expect(all.getByRole('listitem').filter({ hasText: ann })).toContainText('Unsubscribed');
  await expect(all.getByRole('listitem').filter({ hasText: bob })).not.toContainText('Unsubscribed');
  await screenshots(page, testInfo, 'share-all-subscribers', { fullPage: false });
  expect(await seriousViolations(page), 'all subscribers').toEqual([]);
  // Remove a subscriber by e-mail; Back returns to the form.
  await all.getByRole('button', { name: `Remove ${bob}` }).click();
  await expect(page.getByText(`${bob} no longer receives this Digest.`)).toBeVisible();
  await expect(all.getByRole('listitem').filter({ hasText: bob })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog.getByLabel("Friend's email")).toBeVisible();
  await expect(dialog.getByText('Subscribers: 0')).toBeVisible();
  expect(csp).toEqual([]);
});

test('public pages without login: an unknown shared digest, an unknown profile, an invalid unsubscribe link', async ({
  page,
}, testInfo) => {
  const csp = recordCspViolations(page);
  await page.goto('/digests/share/00000000-0000-4000-8000-000000000000/3');
  await expect(page.getByRole('heading', { name: 'Digest not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/digests\/share\/00000000-0000-4000-8000-000000000000\/3$/);
  // Nothing public, so no feed is announced.
  await expect(page.locator('link[rel="alternate"]')).toHaveCount(0);
  await page.goto('/digests/share/not-a-digest/not-a-number');
  await expect(page.getByRole('heading', { name: 'Digest not found' })).toBeVisible();

  await page.goto('/unsubscribe/not-a-real-token');
  await expect(
    page.getByText('This unsubscribe link is not valid. It may have been mistyped or cut short.'),
  ).toBeVisible();
  await screenshots(page, testInfo, 'unsubscribe-invalid');
  expect(await seriousViolations(page), 'unsubscribe, invalid link').toEqual([]);

  // GET /api/users/by-username/{username} is not served yet: the page says the user is not found.
  await page.goto('/user/nobodyhere');
  await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible();
  await screenshots(page, testInfo, 'public-profile-not-found');
  expect(await seriousViolations(page), 'public profile, not found').toEqual([]);
  expect(csp).toEqual([]);
});

test('signed-in extras: /admin waits for a session, Digest Updates, Support, profile with digests', async ({
  page,
  request,
}, testInfo) => {
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'extras', fullName: 'Alan Turing' });
  const report = await createDigest(request, user.token, { name: 'Bombe Report' });
  await turnOnPublicLink(request, user.token, report.digestId);
  await createDigest(request, user.token, { name: 'Enigma Keys' });

  // /admin waits for a session; a sign-in in another tab ends the wait: it loads the user and the digests
  // and opens /profileView.
  await page.goto('/admin');
  await expect(page.getByText('Waiting for sign-in…')).toBeAttached();
  await page.waitForTimeout(1200);
  await expect(page).toHaveURL(/\/admin$/);
  const otherTab = await page.context().newPage();
  await logIn(otherTab, user.email, user.password);
  await expect(otherTab).toHaveURL(/\/digests$/);
  await otherTab.close();
  await expect(page).toHaveURL(/\/profileView$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Alan Turing' })).toBeVisible();
  // The profile lists the user's public digests with links to their public pages; private ones stay out.
  await expect(page.getByText('Bombe Report', { exact: true })).toBeVisible();
  await expect(page.getByText('Enigma Keys', { exact: true })).toHaveCount(0);
  await expect(page.getByText('No issue sent yet')).toBeVisible();
  await screenshots(page, testInfo, 'profile-view-digests');
  expect(await seriousViolations(page), '/profileView').toEqual([]);

  // Header: Digest Updates → /changelog (the repository's CHANGELOG.md), Support → SUPPORT_EMAIL.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Alan Turing profile menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Support' })).toHaveAttribute(
    'href',
    'mailto:help@digest.test',
  );
  await page.getByRole('menuitem', { name: 'Digest Updates' }).click();
  await expect(page).toHaveURL(/\/changelog$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Changelog' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Unreleased' })).toBeVisible();
  await page.goto('/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support page' })).toBeVisible();
  expect(csp).toEqual([]);
});

test("'Create digest' is disabled once the user has more than 99 digests", async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await createUser(request, { label: 'many', fullName: 'Many Digests' });
  for (let batch = 0; batch < 10; batch += 1) {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        createDigest(request, user.token, { name: `Digest ${batch * 10 + index + 1}` }),
      ),
    );
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSignedIn(page, user.token, '/digests');
  // The page first restores its session with the refresh cookie, then renders 100 cards: on a busy
  // machine that takes longer than the default 5 s.
  await expect(page.getByRole('article')).toHaveCount(100, { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Create digest' })).toBeDisabled();
  // The server refuses the 101st too.
  const refused = await request.post('/api/digests', {
    headers: auth(user.token),
    data: { name: 'One too many', sources: [{ type: 'DATE' }, { type: 'DATE' }, { type: 'DATE' }] },
  });
  expect(refused.status()).toBeGreaterThanOrEqual(400);
});

test('issues: Send latest digest builds one from live content and mails it; newest selected, pager disabled at the ends, sandboxed frame; the public page takes the issue title', async ({
  page,
  request,
  browser,
  baseURL,
}, testInfo) => {
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'issues', fullName: 'Ada Lovelace' });
  const digest = await createDigest(request, user.token, {
    name: 'Engine Notes',
    // Each issue repeats the feed's items (issue 16's "Only new items" off): this test is about the pager.
    sources: [
      { type: 'RSS', feedLink: `${fakesOrigin()}/feeds/rss2.xml`, sourceName: 'Field Notes', onlyNew: false },
      { type: 'HACKER_NEWS', onlyNew: false },
      { type: 'DATE' },
    ],
  });
  const item = 'The night shift that keeps the trams running';
  await openSignedIn(page, user.token, `/digests/${digest.digestId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Engine Notes' })).toBeVisible();
  await expect(
    page.getByText('Your Digest will display here once it is sent to you at the scheduled time.'),
  ).toBeVisible();
  await expect(page.getByText(/^Next issue /)).toBeVisible();

  // Send latest digest builds issue 1, then issue 2, and selects each as it arrives.
  const send = page.getByRole('button', { name: 'Send latest digest' });
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 1/ })).toBeVisible({ timeout: 20_000 });
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 2/ })).toBeVisible({ timeout: 20_000 });
  const mail = await waitForMail(user.email, /^Digest “Engine Notes”, issue 2$/);
  expect(mail.html).toContain(item);
  expect(mail.text).toContain(item);

  const previous = page.getByRole('button', { name: 'Previous issue' });
  const next = page.getByRole('button', { name: 'Next issue' });
  await expect(next).toBeDisabled();
  await expect(previous).toBeEnabled();
  const frame = page.locator('iframe[title="Engine Notes, issue 2"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  // The owner reads the full issue by its signed link: the digest is private, it has no public page.
  await expect(frame).toHaveAttribute(
    'src',
    new RegExp(`^/api/digests/${digest.digestId}/issues/2/html\\?expires=\\d+&signature=[\\w-]+$`),
  );
  const issueFrame = page.frameLocator('iframe[title="Engine Notes, issue 2"]');
  await expect(issueFrame.getByText(item)).toBeVisible();
  await screenshots(page, testInfo, 'digest-detail-issues', {
    // Let the frame paint its issue after the resize.
    atWidth: async () => {
      await expect(issueFrame.getByText(item)).toBeVisible();
      await page.waitForTimeout(300);
    },
  });
  expect(await seriousViolations(page), 'digest detail with issues').toEqual([]);

  await previous.click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 1/ })).toBeVisible();
  await expect(previous).toBeDisabled();
  await expect(next).toBeEnabled();
  await expect(page.frameLocator('iframe[title="Engine Notes, issue 1"]').getByText(item)).toBeVisible();

  // Turned on, the copied link opens the latest issue.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await expect(page.getByText('Private', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Engine Notes' });
  await dialog.getByRole('tab', { name: 'Public' }).click();
  await dialog.getByRole('button', { name: 'Turn on the public link' }).click();
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  const publicLink = await page.evaluate(() => navigator.clipboard.readText());
  expect(publicLink).toMatch(new RegExp(`^${baseURL}/digests/share/[A-Za-z0-9_-]{43}$`));
  await page.keyboard.press('Escape');
  await expect(page.getByText('Public', { exact: true })).toBeVisible();
  expect(csp).toEqual([]);

  // An anonymous browser: spinner, then the issue in a sandboxed frame, titled from its <title>.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  const visitorCsp = recordCspViolations(visitor);
  await visitor.goto(publicLink);
  await expect(visitor).toHaveTitle('Engine Notes');
  // The link preview comes with the page's HTML (crawlers run no script), one tag of each.
  await expect(visitor.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Engine Notes');
  await expect(visitor.locator('meta[property="og:description"]')).toHaveAttribute(
    'content',
    "Issue 2 of a daily digest by Ada Lovelace, with RSS, Hacker News, and Today's Date.",
  );
  await expect(visitor.locator('meta[property="og:url"]')).toHaveAttribute('content', publicLink);
  // Feed readers given the link find the digest's Atom feed and JSON Feed there; both load without a login.
  const token = publicLink.split('/').pop();
  const feedLink = (type: string) => visitor.locator(`head link[rel="alternate"][type="${type}"]`);
  await expect(visitor.locator('head link[rel="alternate"]')).toHaveCount(2);
  await expect(feedLink('application/atom+xml')).toHaveAttribute('title', 'Engine Notes (Atom)');
  const atomUrl = await feedLink('application/atom+xml').getAttribute('href');
  const jsonUrl = await feedLink('application/feed+json').getAttribute('href');
  expect(atomUrl).toBe(`${baseURL}/api/digests/share/${token}/feed.atom`);
  expect(jsonUrl).toBe(`${baseURL}/api/digests/share/${token}/feed.json`);
  const atom = await anonymous.request.get(atomUrl ?? '');
  expect(atom.status()).toBe(200);
  expect(atom.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
  const atomText = await atom.text();
  expect(atomText).toContain('<title type="text">Engine Notes · Issue #2</title>');
  expect(atomText).toContain(item);
  const jsonFeed = await (await anonymous.request.get(jsonUrl ?? '')).json();
  expect(jsonFeed.items.map((entry: { title: string; url: string }) => [entry.title, entry.url])).toEqual([
    ['Engine Notes · Issue #2', `${publicLink}/2`],
    ['Engine Notes · Issue #1', `${publicLink}/1`],
  ]);
  const publicFrame = visitor.locator('iframe[title="Engine Notes"]');
  await expect(publicFrame).toHaveAttribute('sandbox', '');
  const visitorFrame = visitor.frameLocator('iframe[title="Engine Notes"]');
  await expect(visitorFrame.getByText(item)).toBeVisible();
  await screenshots(visitor, testInfo, 'public-page', {
    // Let the frame paint its issue after the resize.
    atWidth: async () => {
      await expect(visitorFrame.getByText(item)).toBeVisible();
      await visitor.waitForTimeout(300);
    },
  });
  expect(await seriousViolations(visitor), 'public page').toEqual([]);
  expect(visitorCsp).toEqual([]);
  await anonymous.close();
});
