import { expect, test } from '@playwright/test';
import { createUser, openSignedIn, screenshots } from './support/accounts';
import { chooseKind, sidebar } from './support/builder';

// Issue 19: where Reddit refuses the server its API, the Reddit panel says what reading public feeds
// cannot give, and takes a subreddit's name instead of a list. The e2e server reads Reddit with the fake's
// app credentials (where Reddit never refuses it), so the subreddit list is answered here exactly as a
// blocked server answers it (kinds/reddit.routes.test.ts checks that answer against the fake Reddit).
const BLOCKED_LIST = { subreddits: [], after: null, access: 'feed' };

test('the Reddit panel of a server Reddit refuses: the feed limits, and a subreddit picked by its name', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.route(
    (url) => url.pathname === '/api/data-sources/reddit',
    (route) => route.fulfill({ json: BLOCKED_LIST }),
  );
  const user = await createUser(request, { label: 'redditfeed', fullName: 'Ada Lovelace' });
  await openSignedIn(page, user.token, '/digestCreator');
  await chooseKind(page, 'Reddit');

  const side = sidebar(page);
  const note = side.getByRole('note');
  await expect(note).toContainText(
    'Reddit does not let this server use its API, so posts come from the subreddit’s public feed: without upvotes or comment counts, at most 25 of the hot posts, and pinned and NSFW posts are not left out. Type the name of the subreddit to add.',
  );
  await expect(side.getByText('No results...')).toHaveCount(0);
  await screenshots(page, testInfo, 'reddit-feed-selected', { widths: [1280, 375] });

  await side.getByRole('searchbox', { name: 'Search subreddits' }).fill('webdev');
  const results = side.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('button', { name: /^r\/webdev/ })).toContainText(
    'Read from its public feed',
  );
  await screenshots(page, testInfo, 'reddit-feed-searching', { widths: [1280, 375] });
  await results.getByRole('button', { name: /^r\/webdev/ }).click();

  await expect(side.getByText('r/webdev')).toBeVisible();
  await expect(side.getByRole('note')).toContainText('without upvotes or comment counts');
  await expect(side.getByRole('button', { name: 'Save', exact: true })).toBeEnabled();
  await screenshots(page, testInfo, 'reddit-feed-edit', { widths: [1280, 375] });
});
