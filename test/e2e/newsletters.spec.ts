import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { createUser, openSignedIn, screenshots } from './support/accounts';
import { seriousViolations } from './support/axe';
import { waitForMail } from './support/mailbox';
import { E2E_MAIL_DOMAIN, sendNewsletter } from './support/newsletters';

/** A sender's one-click unsubscribe endpoint, on this machine: what it was posted. */
async function startUnsubscribeServer(): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method === 'POST') bodies.push(body);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('You are unsubscribed.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/unsubscribe/u-1`, bodies };
}

/** The sanitiser's attack vectors: none of them may run in the reader. */
const HOSTILE_HTML = [
  '<h1>Letters Weekly</h1><p>Three things worth reading.</p>',
  '<script>alert("script")</script>',
  '<img src="x" onerror="alert(\'onerror\')">',
  '<a href="javascript:alert(\'href\')">A link</a>',
  '<svg><script>alert("svg")</script></svg>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
].join('');

const CONFIRM_URL = 'https://techweekly.example/subscribe/confirm?u=9f&id=3c&e=1a';
const GMAIL_TEXT = [
  'ada@gmail.com has requested to automatically forward mail to your email address.',
  '',
  'Confirmation code: 618309214',
  '',
  'To allow ada@gmail.com to automatically forward mail to your address,',
  'please click the link below to confirm the request:',
  '',
  'https://mail-settings.google.com/mail/vf-%5BANGjdJ8x2%5D-Qm9vYmFy',
].join('\n');

const senderCard = (page: Page, name: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });

test('the Newsletters page: address, pinned confirmations and codes, inbox, reader, senders, one-click unsubscribe', async ({
  page,
  request,
  context,
}, testInfo) => {
  const unsubscribeEndpoint = await startUnsubscribeServer();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    const user = await createUser(request, { label: 'letters', fullName: 'Ada Lovelace' });
    const address = `${user.username?.toLowerCase()}@${E2E_MAIL_DOMAIN}`;

    // What a mailbox receives: two newsletters, a confirmation, a Gmail forwarding code, a reply-to-confirm.
    await sendNewsletter({
      to: address,
      from: 'Letters Weekly <news@letters.example>',
      subject: 'Letters Weekly #1',
      html: HOSTILE_HTML,
      headers: {
        'List-Id': 'Letters Weekly <weekly.letters.example>',
        'List-Unsubscribe': `<${unsubscribeEndpoint.url}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    await sendNewsletter({
      to: address,
      from: 'Morning Brew <hello@brew.example>',
      subject: 'Morning Brew: markets today',
      html: '<p>Markets were calm.</p>',
    });
    await sendNewsletter({
      to: address,
      from: 'Tech Weekly <confirm@techweekly.example>',
      subject: 'Tech Weekly: Please Confirm Subscription',
      text: 'Please confirm your subscription to the Tech Weekly list.',
      html: `<h1>Please Confirm Subscription</h1><a href="${CONFIRM_URL}">Yes, subscribe me to this list.</a>`,
    });
    await sendNewsletter({
      to: address,
      from: 'Gmail Team <forwarding-noreply@google.com>',
      subject: '(#618309214) Gmail Forwarding Confirmation - Receive Mail from ada@gmail.com',
      text: GMAIL_TEXT,
    });
    await sendNewsletter({
      to: address,
      from: 'Sam <sam@letters-by-sam.example>',
      subject: 'Confirm your subscription to Sam’s Letters',
      text: 'Thanks for signing up! To confirm your subscription, simply reply to this email.',
    });

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, user.token, '/newsletters');
    await expect(page.getByRole('heading', { level: 1, name: 'Ada Lovelace Newsletters' })).toBeVisible();

    // The address, copied to the clipboard with a confirmation.
    await expect(page.getByText(address, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Copy address' }).click();
    await expect(page.getByText(`Copied ${address}`)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

    // Pinned: the confirmation's button opens its link in a new tab; the forwarding code is shown.
    const confirmation = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: 'Confirm your subscription to Tech Weekly' }) });
    const confirm = confirmation.getByRole('link', { name: /Confirm subscription/ });
    await expect(confirm).toHaveAttribute('href', CONFIRM_URL);
    await expect(confirm).toHaveAttribute('target', '_blank');
    await expect(confirm).toHaveAttribute('rel', 'noopener noreferrer');
    const forwarding = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: 'Forwarding code from Gmail Team' }) });
    await expect(forwarding.getByText('618309214', { exact: true })).toBeVisible();
    await expect(forwarding.getByRole('link', { name: /Confirm forwarding/ })).toHaveAttribute(
      'href',
      'https://mail-settings.google.com/mail/vf-%5BANGjdJ8x2%5D-Qm9vYmFy',
    );

    // Reply to confirm: the server sends the reply from the user's address.
    await page.getByRole('button', { name: 'Reply to confirm' }).click();
    await expect(page.getByText('Reply sent to Sam')).toBeVisible();
    const reply = await waitForMail('sam@letters-by-sam.example', /^Re: Confirm your subscription/);
    expect(reply.from?.text).toContain(address);

    // The inbox: newest first, unread marked; axe on the page with everything on it.
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await expect(inbox.getByRole('link', { name: 'Letters Weekly #1' })).toBeVisible();
    await expect(inbox.getByText('Unread').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, testInfo, 'newsletters', { widths: [1280, 375] });

    // Search sends q and narrows the list.
    const searched = page.waitForRequest((r) => new URL(r.url()).searchParams.get('q') === 'Brew');
    await inbox.getByLabel('Search by sender or subject').fill('Brew');
    await searched;
    await expect(inbox.getByRole('link', { name: 'Morning Brew: markets today' })).toBeVisible();
    await expect(inbox.getByRole('link', { name: 'Letters Weekly #1' })).toBeHidden();
    await inbox.getByLabel('Search by sender or subject').fill('');

    // The reader: a deep link, the checks shown plainly, the HTML framed and sandboxed, no script run.
    await inbox.getByRole('link', { name: 'Letters Weekly #1' }).click();
    await expect(page).toHaveURL(/\/newsletters\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Letters Weekly #1' })).toBeVisible();
    await expect(page.getByText('Letters Weekly <news@letters.example>')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Sender authentication' })).toContainText('DKIM');
    const frame = page.locator('iframe[title="Message: Letters Weekly #1"]');
    await expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    const content = page.frameLocator('iframe[title="Message: Letters Weekly #1"]');
    await expect(content.getByRole('heading', { name: 'Letters Weekly' })).toBeVisible();
    expect(await content.locator('script, iframe, [onerror]').count()).toBe(0);
    await expect(content.getByText('A link')).not.toHaveAttribute('href', /javascript:/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, testInfo, 'newsletter-reader', { widths: [1280, 375] });
    await page.reload();
    await expect(content.getByRole('heading', { name: 'Letters Weekly' })).toBeVisible();

    // Senders: Mute, then Block; Unsubscribe by one-click POST to the sender's endpoint.
    await page.getByRole('link', { name: 'Newsletters', exact: true }).first().click();
    const brew = senderCard(page, 'Morning Brew');
    await brew.getByRole('button', { name: 'Mute' }).click();
    await expect(brew.getByText('Muted', { exact: true })).toBeVisible();
    await brew.getByRole('button', { name: 'Block' }).click();
    await expect(brew.getByText('Blocked', { exact: true })).toBeVisible();

    const letters = senderCard(page, 'Letters Weekly');
    await letters.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(letters.getByRole('status')).toContainText('Unsubscribed. 127.0.0.1');
    await expect(letters.getByText('Unsubscribed', { exact: true })).toBeVisible();
    expect(unsubscribeEndpoint.bodies).toEqual(['List-Unsubscribe=One-Click']);
    expect(dialogs).toEqual([]);
  } finally {
    await new Promise((resolve) => unsubscribeEndpoint.server.close(resolve));
  }
});
