import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { createUser, openSignedIn, recordCspViolations, type TokenPair } from './support/accounts';
import {
  addFromPopular,
  block,
  blockTypes,
  chooseKind,
  expectLoaded,
  save,
  sidebar,
  stack,
} from './support/builder';
import { auth, createDigest, createDraft, getDigest, listDrafts } from './support/digests';
import { fakesOrigin } from './support/fakes';
import { waitForMail } from './support/mailbox';

// Issue 7 "Tests": the builder in Chromium against the real server and the fake providers. Each flow
// checks what the user sees and what the server stored.

/** The stored digest, with the fields the builder sets. */
interface StoredDigest {
  name: string;
  scheduleType: string;
  time: string;
  weekDay: number;
  monthDay: number;
  subscribers: string[];
  sources: { type: string; name?: string; numberOfPosts?: number; [field: string]: unknown }[];
}
const stored = async (request: APIRequestContext, token: TokenPair, digestId: string) =>
  (await getDigest(request, token, digestId)) as unknown as StoredDigest;

/** The headings of an issue's blocks (h2), in the e-mail's order. */
function blockHeadings(html: string): string[] {
  return [...html.matchAll(/<h2[^>]*>([\s\S]*?)<\/h2>/g)].map((match) =>
    (match[1] ?? '')
      .replace(/<[^>]+>/g, '')
      .replaceAll('&#x27;', "'")
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&')
      .trim(),
  );
}

test('creates a digest from scratch with eight kinds, reorders, edits and duplicates blocks, and completes it weekly', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const csp = recordCspViolations(page);
  const user = await createUser(request, { label: 'builder', fullName: 'Ada Lovelace' });
  await openSignedIn(page, user.token, '/digestCreator');
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Select sources' })).toBeVisible();
  await expect(page.getByLabel('Digest name')).toHaveValue("Ada Lovelace's Digest");
  const complete = page.getByRole('button', { name: 'Complete', exact: true });
  await expect(complete).toBeDisabled();

  // Hacker News: settings only.
  await chooseKind(page, 'Hacker News');
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible();
  await expect(sidebar(page).getByLabel('Number of posts')).toHaveValue('6');
  await save(page);
  await expectLoaded(block(page, 'Hacker News'));
  await expect(block(page, 'Hacker News').getByText(/\d+ comments?$/)).toHaveCount(6);

  // Weather: search a city, pick it, save.
  await chooseKind(page, 'Weather');
  await expect(sidebar(page).getByText('Search for something')).toBeVisible();
  await sidebar(page).getByRole('searchbox', { name: 'Search for a city' }).fill('Warsaw');
  await expect(sidebar(page).getByText('Choose an option from the results')).toBeVisible();
  await sidebar(page)
    .getByRole('button', { name: /^Warsaw/ })
    .first()
    .click();
  await expect(sidebar(page).getByText(/^Location\s*Warsaw, Masovian, Poland$/)).toBeVisible();
  await save(page);
  await expectLoaded(block(page, 'Weather'));

  // RSS, Reddit, YouTube: a pick from each one's Popular list.
  await addFromPopular(page, 'RSS', 'BBC News', 'BBC News');
  await addFromPopular(page, 'Reddit', 'r/programming', 'r/programming');
  await addFromPopular(page, 'YouTube', 'Veritasium', 'Veritasium');

  // Product Hunt and today's date: settings only.
  await chooseKind(page, 'Product Hunt');
  await save(page);
  await expectLoaded(block(page, 'Product Hunt'));
  await chooseKind(page, "Today's Date");
  await save(page);
  await expectLoaded(block(page, "Today's Date"));

  // Stripe needs a connected account: Connect → the provider's consent → back at the builder, which
  // checks the accounts and opens the settings.
  await chooseKind(page, 'Stripe');
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Connect source' })).toBeVisible();
  await expect(sidebar(page).getByText('This source is not connected yet.')).toBeVisible();
  await sidebar(page).getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page).toHaveURL(/\/digestCreator/);
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible({
    timeout: 20_000,
  });
  const stripeAccount = sidebar(page).getByRole('group').first();
  await stripeAccount.getByRole('checkbox', { name: 'Include in this Digest' }).check();
  await save(page);
  await expectLoaded(block(page, 'Stripe'));
  expect(await blockTypes(page)).toEqual([
    'HACKER_NEWS',
    'WEATHER',
    'RSS',
    'REDDIT',
    'YOUTUBE',
    'PRODUCT_HUNT',
    'DATE',
    'STRIPE',
  ]);
  await expect(page.getByText('8 sources')).toBeVisible();

  // Reorder with the buttons…
  await block(page, "Today's Date").getByRole('button', { name: "Move up: Today's Date" }).click();
  await block(page, 'Hacker News').getByRole('button', { name: 'Move down: Hacker News' }).click();
  expect(await blockTypes(page)).toEqual([
    'WEATHER',
    'HACKER_NEWS',
    'RSS',
    'REDDIT',
    'YOUTUBE',
    'DATE',
    'PRODUCT_HUNT',
    'STRIPE',
  ]);
  // …and by dragging Stripe's handle onto Product Hunt with the mouse.
  await dragOnto(page, block(page, 'Stripe'), block(page, 'Product Hunt'));
  await expect
    .poll(() => blockTypes(page))
    .toEqual(['WEATHER', 'HACKER_NEWS', 'RSS', 'REDDIT', 'YOUTUBE', 'DATE', 'STRIPE', 'PRODUCT_HUNT']);

  // Edit a block: 3 stories instead of 6; the preview follows.
  await block(page, 'Hacker News').getByRole('button', { name: 'Edit: Hacker News' }).click();
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible();
  await sidebar(page).getByLabel('Number of posts').fill('3');
  await save(page);
  await expect(block(page, 'Hacker News').getByText(/\d+ comments?$/)).toHaveCount(3);

  // Duplicate: a copy right below.
  await block(page, 'Product Hunt').getByRole('button', { name: 'Duplicate: Product Hunt' }).click();
  const order = [
    'WEATHER',
    'HACKER_NEWS',
    'RSS',
    'REDDIT',
    'YOUTUBE',
    'DATE',
    'STRIPE',
    'PRODUCT_HUNT',
    'PRODUCT_HUNT',
  ];
  expect(await blockTypes(page)).toEqual(order);

  // The builder has kept a draft of it all along.
  await expect
    .poll(async () => (await listDrafts(request, user.token))[0]?.sources.map((source) => source.type))
    .toEqual(order);

  // Complete: weekly on Thursday at 6:30 pm.
  await expect(complete).toBeEnabled();
  await complete.click();
  const popup = page.getByRole('dialog', { name: 'Schedule your Digest' });
  await expect(popup).toBeVisible();
  await popup.getByLabel('Frequency').selectOption({ label: 'Weekly' });
  await popup.getByLabel('Weekday').selectOption({ label: 'Thursday' });
  await popup.getByLabel('Time of day').selectOption({ label: '6:30 pm' });
  await expect(popup.getByLabel('Keep issues for')).toHaveValue('12');
  await popup.getByLabel('Keep issues for').selectOption({ label: '3 months' });
  await popup.getByRole('button', { name: 'Done' }).click();
  const done = page.getByRole('dialog', { name: 'Well done!' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done.getByText('Your Digest will be sent to:')).toBeVisible();
  await expect(done.getByText(user.email, { exact: true })).toBeVisible();
  await done.getByRole('button', { name: 'Go to Digests' }).click();

  await expect(page).toHaveURL(/\/digests$/);
  const card = page.getByRole('article', { name: "Ada Lovelace's Digest", exact: true });
  await expect(card.getByText('Weekly', { exact: true })).toBeVisible();
  await expect(card.getByText('Thursday', { exact: true })).toBeVisible();
  await expect(card.getByText('6:30 pm', { exact: true })).toBeVisible();
  // Completing deleted the draft the builder kept.
  expect(await listDrafts(request, user.token)).toEqual([]);

  // The server has the sources in the chosen order, the edit and the schedule.
  const listed = await request.get('/api/digests', { headers: auth(user.token) });
  const [summary] = ((await listed.json()) as { digests: { digestId: string }[] }).digests;
  const digest = await stored(request, user.token, summary?.digestId ?? '');
  expect(digest.sources.map((source) => source.type)).toEqual(order);
  expect(digest.sources[1]?.numberOfPosts).toBe(3);
  expect(digest).toMatchObject({
    scheduleType: 'weekly',
    weekDay: 4,
    time: '18:30',
    issueRetentionMonths: 3,
  });

  // Its first issue: on the detail page, and in the inbox with the blocks in that order.
  await card.getByRole('link', { name: "Ada Lovelace's Digest" }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Issue 1/ })).toBeVisible({ timeout: 20_000 });
  const mail = await waitForMail(user.email, /, issue 1$/);
  expect(blockHeadings(mail.html || '')).toEqual([
    'Weather',
    'Hacker News',
    'BBC News',
    'r/programming',
    'Veritasium',
    "Today's Date",
    'Stripe',
    'Product Hunt',
    'Product Hunt',
  ]);
  expect(csp).toEqual([]);
});

/**
 * Drags `source` by its handle with the mouse until its middle is over `target`'s, and drops it. The window
 * is made tall enough for both blocks, so the drag never has to scroll.
 */
async function dragOnto(page: Page, source: Locator, target: Locator): Promise<void> {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport?.width ?? 1280, height: 3000 });
  await source.evaluate((node) => node.scrollIntoView({ block: 'end' }));
  const handle = source.getByRole('button', { name: /^Drag to reorder/ });
  const from = await handle.boundingBox();
  const sourceBox = await source.boundingBox();
  const targetBox = await target.boundingBox();
  if (!from || !sourceBox || !targetBox) throw new Error('the blocks are not on screen');
  const startX = from.x + from.width / 2;
  const startY = from.y + from.height / 2;
  const dy = targetBox.y + targetBox.height / 2 - (sourceBox.y + sourceBox.height / 2);
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  // Past the 6 px the pointer sensor waits for, then in steps, as a hand would.
  await page.mouse.move(startX, startY + Math.sign(dy) * 10, { steps: 3 });
  await page.mouse.move(startX, startY + dy, { steps: 15 });
  await page.mouse.up();
  if (viewport) await page.setViewportSize(viewport);
}

test('the guided sequence opens Hacker News, adds the date, opens RSS, then closes the sidebar', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'guided' });
  await openSignedIn(page, user.token, '/digestCreator?sources=hackerNews,todaysDate,rss');
  // Hacker News first, at its settings.
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible();
  await expect(sidebar(page).getByText('Source 1 of 3')).toBeVisible();
  await expect(sidebar(page).getByLabel('Stories')).toBeVisible();
  // The parameter leaves the address, so a reload does not start the sequence again.
  await expect(page).toHaveURL(/\/digestCreator$/);
  await save(page);
  // Today's date is added without a panel; RSS opens at its popular feeds.
  await expect(sidebar(page).getByText('Source 3 of 3')).toBeVisible();
  await expect(
    sidebar(page).getByRole('searchbox', { name: 'Search feeds or paste a feed address' }),
  ).toBeVisible();
  expect(await blockTypes(page)).toEqual(['HACKER_NEWS', 'DATE']);
  // A pasted feed address is offered as the only result.
  await sidebar(page)
    .getByRole('searchbox', { name: 'Search feeds or paste a feed address' })
    .fill(`${fakesOrigin()}/feeds/rss2.xml`);
  await sidebar(page).getByRole('region', { name: 'Results' }).getByRole('button').first().click();
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible();
  await sidebar(page).getByRole('button', { name: 'Save', exact: true }).click();
  // The end of the sequence closes the sidebar.
  await expect(sidebar(page)).toHaveCount(0);
  expect(await blockTypes(page)).toEqual(['HACKER_NEWS', 'DATE', 'RSS']);
  await expect(
    page.getByTestId('source-block').nth(2).getByText('The night shift that keeps the trams running'),
  ).toBeVisible();
  // The draft has them in that order.
  await expect
    .poll(async () => (await listDrafts(request, user.token))[0]?.sources.map((source) => source.type))
    .toEqual(['HACKER_NEWS', 'DATE', 'RSS']);
});

test('drafts: the first source creates one, Edit on its card restores it with its content, removing the last source deletes it', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'drafts', fullName: 'Grace Hopper' });
  await openSignedIn(page, user.token, '/digestCreator');
  await page.getByLabel('Digest name').fill('Reading list');
  await chooseKind(page, 'Hacker News');
  await save(page);
  await expect
    .poll(async () =>
      (await listDrafts(request, user.token)).map((draft) => [draft.name, draft.sources.length]),
    )
    .toEqual([['Reading list', 1]]);

  await page.getByRole('link', { name: 'Back to Digests' }).click();
  const card = page.getByRole('article', { name: 'Reading list', exact: true });
  await expect(card.getByText('Draft', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Edit Reading list' }).click();

  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(page.getByLabel('Digest name')).toHaveValue('Reading list');
  const hackerNews = block(page, 'Hacker News');
  await expectLoaded(hackerNews);
  await expect(hackerNews.getByText(/\d+ comments?$/)).toHaveCount(6);
  // Opening the draft saved nothing new.
  expect((await listDrafts(request, user.token)).length).toBe(1);

  await hackerNews.getByRole('button', { name: 'Delete: Hacker News' }).click();
  await expect(page.getByTestId('source-block')).toHaveCount(0);
  await expect.poll(async () => (await listDrafts(request, user.token)).length).toBe(0);
});

test('editing a digest restores its name, schedule and sources; Update digest saves the changes and makes no draft', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'editing' });
  const created = await createDigest(request, user.token, {
    name: 'Morning Brief',
    scheduleType: 'weekly',
    weekDay: 1,
    time: '18:30',
    issueRetentionMonths: 24,
    subscribers: ['friend@example.com'],
  });
  await openSignedIn(page, user.token, `/digests/${created.digestId}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();

  await expect(page).toHaveURL(/\/digestCreator$/);
  await expect(page.getByLabel('Digest name')).toHaveValue('Morning Brief');
  expect(await blockTypes(page)).toEqual(['DATE', 'HACKER_NEWS', 'WEATHER']);
  await expectLoaded(block(page, 'Hacker News'));
  await expect(block(page, 'Hacker News').getByText(/\d+ comments?$/)).toHaveCount(5);

  // Change a source's setting.
  await block(page, 'Hacker News').getByRole('button', { name: 'Edit: Hacker News' }).click();
  await expect(sidebar(page).getByLabel('Number of posts')).toHaveValue('5');
  await sidebar(page).getByLabel('Number of posts').fill('2');
  await save(page);
  await expect(block(page, 'Hacker News').getByText(/\d+ comments?$/)).toHaveCount(2);

  // The popup shows the stored schedule and friend; change the schedule.
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const popup = page.getByRole('dialog', { name: 'Update your Digest' });
  await expect(popup.getByLabel('Frequency')).toHaveValue('weekly');
  await expect(popup.getByLabel('Weekday')).toHaveValue('1');
  await expect(popup.getByLabel('Time of day')).toHaveValue('18:30');
  await expect(popup.getByLabel('Keep issues for')).toHaveValue('24');
  await expect(popup.getByRole('list', { name: 'Friends' })).toHaveText('friend@example.com');
  await popup.getByLabel('Frequency').selectOption({ label: 'Monthly' });
  await popup.getByLabel('Day of month').selectOption({ label: '15th' });
  await popup.getByLabel('Time of day').selectOption({ label: '9:05 am' });
  await popup.getByLabel('Keep issues for').selectOption({ label: '1 month' });
  await popup.getByRole('button', { name: 'Update digest' }).click();
  const done = page.getByRole('dialog', { name: 'Well done!' });
  await expect(done).toBeVisible({ timeout: 20_000 });
  await done.getByRole('button', { name: 'Go to Digests' }).click();
  await expect(page).toHaveURL(/\/digests$/);

  const digest = await stored(request, user.token, created.digestId);
  expect(digest).toMatchObject({
    name: 'Morning Brief',
    scheduleType: 'monthly',
    monthDay: 15,
    time: '09:05',
    issueRetentionMonths: 1,
  });
  expect(digest.sources.map((source) => source.type)).toEqual(['DATE', 'HACKER_NEWS', 'WEATHER']);
  expect(digest.sources[1]?.numberOfPosts).toBe(2);
  expect(digest.subscribers).toEqual(['friend@example.com']);
  expect(await listDrafts(request, user.token)).toEqual([]);
  const listed = await request.get('/api/digests', { headers: auth(user.token) });
  expect(((await listed.json()) as { digests: unknown[] }).digests).toHaveLength(1);
});

test('limits: Complete waits for 3 sources; at 20 every add and Duplicate is disabled', async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'limits' });
  await openSignedIn(page, user.token, '/digestCreator');
  await chooseKind(page, 'Hacker News');
  await save(page);
  await chooseKind(page, "Today's Date");
  await save(page);
  const header = page.getByRole('banner');
  await expect(header.getByText('Add at least 3 sources to your Digest')).toBeVisible();
  await expect(header.getByText('2 of 3 sources')).toBeVisible();
  await expect(header.getByRole('button', { name: 'Complete', exact: true })).toBeDisabled();

  // A draft of 20 sources, opened from its card.
  const twenty = Array.from({ length: 20 }, (_, index) =>
    index % 2 === 0
      ? { type: 'DATE', name: `Date ${index + 1}` }
      : { type: 'HACKER_NEWS', name: `News ${index + 1}` },
  );
  await createDraft(request, user.token, { name: 'Full house', sources: twenty });
  await page.getByRole('link', { name: 'Back to Digests' }).click();
  await page
    .getByRole('article', { name: 'Full house', exact: true })
    .getByRole('button', { name: 'Edit Full house' })
    .click();
  await expect(page.getByTestId('source-block')).toHaveCount(20);
  await expect(header.getByText('20 of 20 sources')).toBeVisible();
  await expect(header.getByRole('button', { name: 'Complete', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Add source' })).toBeDisabled();
  const addHere = stack(page).getByRole('button', { name: /^Add a source at position/ });
  await expect(addHere).toHaveCount(19);
  for (const button of await addHere.all()) await expect(button).toBeDisabled();
  const duplicates = stack(page).getByRole('button', { name: /^Duplicate: / });
  await expect(duplicates).toHaveCount(20);
  for (const button of await duplicates.all()) await expect(button).toBeDisabled();
  await expect(page.getByText('A Digest can have at most 20 sources').first()).toBeVisible();

  // The sidebar's entry step says so too, and no kind can be chosen.
  await block(page, 'Date 1').getByRole('button', { name: 'Edit: Date 1' }).click();
  await sidebar(page).getByRole('button', { name: 'Back' }).click();
  await expect(
    sidebar(page).getByRole('status').filter({ hasText: 'A Digest can have at most 20 sources' }),
  ).toBeVisible();
  const kinds = sidebar(page).getByRole('region', { name: 'Popular' }).getByRole('button');
  await expect(kinds.first()).toBeVisible();
  for (const button of await kinds.all()) await expect(button).toBeDisabled();
});

test("every form's bad inputs: counts over their maximum, a short search phrase, a page that is not a feed; nothing is saved", async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'badinputs' });
  await openSignedIn(page, user.token, '/digestCreator');
  const saveButton = sidebar(page).getByRole('button', { name: 'Save', exact: true });
  const startOver = async () => {
    await sidebar(page).getByRole('button', { name: 'Close sources' }).click();
    await page.getByRole('button', { name: 'Add source' }).click();
  };

  // Hacker News: at most 10.
  await chooseKind(page, 'Hacker News');
  await sidebar(page).getByLabel('Number of posts').fill('11');
  await expect(sidebar(page).getByText('Number of posts must be at most 10')).toBeVisible();
  await expect(saveButton).toBeDisabled();
  await sidebar(page).getByRole('button', { name: 'Back' }).click();

  // RSS: an address that is not a feed is refused; a feed takes at most 50 posts.
  await chooseKind(page, 'RSS');
  const feedSearch = sidebar(page).getByRole('searchbox', { name: 'Search feeds or paste a feed address' });
  await feedSearch.fill(`${fakesOrigin()}/feeds/not-a-feed.txt`);
  const results = sidebar(page).getByRole('region', { name: 'Results' });
  await expect(results.getByRole('alert')).toContainText('not a feed', { timeout: 20_000 });
  await expect(results.getByRole('button')).toHaveCount(0);
  await feedSearch.fill(`${fakesOrigin()}/feeds/rss2.xml`);
  await results.getByRole('button').first().click();
  await sidebar(page).getByLabel('Number of posts').fill('51');
  await expect(sidebar(page).getByText('Number of posts must be at most 50')).toBeVisible();
  await expect(saveButton).toBeDisabled();
  await startOver();

  // Twitter search, after connecting an X account: the phrase's first word needs 3 letters; at most 20 tweets.
  await chooseKind(page, 'Twitter search');
  await sidebar(page).getByRole('button', { name: 'Connect X (Twitter)' }).click();
  await expect(sidebar(page).getByRole('heading', { level: 2, name: 'Edit source' })).toBeVisible({
    timeout: 20_000,
  });
  const phrase = sidebar(page).getByLabel('Search phrase');
  await phrase.fill('ab cd');
  await expect(
    sidebar(page).getByText('Search phrase must start with a word of more than 2 characters'),
  ).toBeVisible();
  await expect(saveButton).toBeDisabled();
  await phrase.fill('typescript');
  await expect(
    sidebar(page).getByText('Search phrase must start with a word of more than 2 characters'),
  ).toHaveCount(0);
  await sidebar(page).getByLabel('Number of tweets').fill('21');
  await expect(sidebar(page).getByText('Number of tweets must be at most 20')).toBeVisible();
  await expect(saveButton).toBeDisabled();

  // Nothing of it reached the digest or the server.
  await expect(page.getByTestId('source-block')).toHaveCount(0);
  expect(await listDrafts(request, user.token)).toEqual([]);
});

test("a friend's bad address is refused, and a source whose preview fails shows its error and keeps Done disabled", async ({
  page,
  request,
}) => {
  const user = await createUser(request, { label: 'popup' });
  await createDraft(request, user.token, {
    name: 'Shaky feeds',
    sources: [
      { type: 'HACKER_NEWS' },
      { type: 'DATE' },
      { type: 'RSS', feedLink: `${fakesOrigin()}/feeds/rss2.xml`, sourceName: 'Field Notes' },
    ],
  });
  // The RSS preview fails as a provider that is down would.
  await page.route('**/api/data-sources/preview', async (route) => {
    const body = route.request().postDataJSON() as { source: { type: string } };
    if (body.source.type !== 'RSS') return route.continue();
    return route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The feed did not answer.', code: 'SOURCE_UNAVAILABLE' }),
    });
  });
  await openSignedIn(page, user.token, '/digests');
  await page
    .getByRole('article', { name: 'Shaky feeds', exact: true })
    .getByRole('button', { name: 'Edit Shaky feeds' })
    .click();
  const feed = block(page, 'Field Notes');
  await expect(feed.getByText('Field Notes could not be loaded: The feed did not answer.')).toBeVisible();
  await expectLoaded(block(page, 'Hacker News'));

  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const popup = page.getByRole('dialog', { name: 'Schedule your Digest' });
  await popup.getByLabel("Friend's email").fill('not-an-email');
  await popup.getByRole('button', { name: 'Add email to the list' }).click();
  await expect(popup.getByText('not-an-email should be a valid email!', { exact: true })).toBeVisible();
  await expect(popup.getByRole('list', { name: 'Friends' })).toHaveCount(0);
  const doneButton = popup.getByRole('button', { name: 'Done' });
  await expect(doneButton).toBeDisabled();
  await expect(
    popup.getByText('Some content could not be loaded: edit or remove this source first: Field Notes.'),
  ).toBeVisible();
  await expect(doneButton).toHaveAccessibleDescription(
    'Some content could not be loaded: edit or remove this source first: Field Notes.',
  );
  const listed = await request.get('/api/digests', { headers: auth(user.token) });
  expect(((await listed.json()) as { digests: unknown[] }).digests).toEqual([]);
});

test('templates: Use template adds its sources in order', async ({ page, request }) => {
  test.setTimeout(60_000);
  const user = await createUser(request, { label: 'templates', fullName: 'Rosalind Franklin' });
  await openSignedIn(page, user.token, '/digestCreator');
  const side = sidebar(page);
  await side.getByRole('tab', { name: 'News', exact: true }).click();
  const templates = side.getByRole('region', { name: 'Templates' });
  await expect(templates.getByRole('heading', { level: 4, name: 'World news' })).toBeVisible();
  await templates.getByRole('button', { name: 'Use template World news' }).click();

  // Every source of the template, in its order, each with its live content (the fakes serve the feeds'
  // offline copies and the subreddit's listing).
  await expect(page.getByText('Added 6 sources from World news')).toBeVisible();
  expect(await blockTypes(page)).toEqual(['DATE', 'RSS', 'RSS', 'RSS', 'RSS', 'REDDIT']);
  const titles = [
    "Today's Date",
    'BBC News – World',
    'The Guardian – World',
    'Al Jazeera',
    'The New York Times',
    'r/worldnews',
  ];
  for (const title of titles) await expectLoaded(block(page, title));
  await expect(stack(page).getByText(/could not be loaded/)).toHaveCount(0);
  await expect(
    block(page, 'BBC News – World').getByText('Morning briefing: what to know today'),
  ).toBeVisible();
  // No name was typed: the digest keeps its default name.
  await expect(page.getByLabel('Digest name')).toHaveValue("Rosalind Franklin's Digest");

  // The draft has them in that order.
  await expect
    .poll(async () => (await listDrafts(request, user.token))[0]?.sources.map((source) => source.type))
    .toEqual(['DATE', 'RSS', 'RSS', 'RSS', 'RSS', 'REDDIT']);
});
