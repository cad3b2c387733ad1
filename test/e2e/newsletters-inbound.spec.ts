import { expect, test } from '@playwright/test';
import { createUser } from './support/accounts';
import { E2E_MAIL_DOMAIN, sendNewsletter } from './support/newsletters';

// The Newsletters page's own specs show the stored issue; this one shows the door: the server started by
// `npm start` with INBOUND_SMTP_PORT runs the inbound role and answers a real SMTP client.
test('the server receives a newsletter by SMTP for a user’s address (250 once stored) and refuses an unknown one (550)', async ({
  request,
}) => {
  const health = await request.get('/api/health');
  expect((await health.json()).roles).toContain('inbound');

  const user = await createUser(request, { label: 'inbound' });
  const response = await sendNewsletter({
    to: `${user.username}+e2e@${E2E_MAIL_DOMAIN}`,
    subject: 'Letters Weekly #1',
    html: '<h1>Letters Weekly</h1><p>Three things worth reading.</p>',
    headers: { 'List-Id': 'Letters Weekly <weekly.letters.example>' },
  });
  expect(response).toMatch(/^250 /);

  const refused = await sendNewsletter({ to: `nobody-here@${E2E_MAIL_DOMAIN}` }).then(
    () => undefined,
    (error: { responseCode?: number }) => error.responseCode,
  );
  expect(refused).toBe(550);
});
