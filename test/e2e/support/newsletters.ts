import nodemailer from 'nodemailer';

/** Where the server's inbound role receives newsletters (scripts/e2e.mjs chooses the port). */
function inboundPort(): number {
  const port = process.env.E2E_INBOUND_PORT;
  if (!port) throw new Error('E2E_INBOUND_PORT is not set: run the specs through `npm run test:e2e`');
  return Number(port);
}

/** The domain of the server's `username@domain` addresses: MAIL_DOMAIN defaults to APP_URL's host. */
export const E2E_MAIL_DOMAIN = '127.0.0.1';

export interface Newsletter {
  /** A mailbox such as `reader@127.0.0.1` (`username+tag@` works too). */
  to: string;
  from?: string;
  subject?: string;
  html?: string;
  text?: string;
  /** Extra headers: `List-Id`, `List-Unsubscribe`, `List-Unsubscribe-Post`, `Message-ID`… */
  headers?: Record<string, string>;
}

/**
 * Sends one message to the server's inbound SMTP port as a newsletter platform would, and answers the
 * server's reply (`250 …` once the message is stored). A refusal (550, 452, …) rejects with nodemailer's
 * error, whose `responseCode` says which.
 */
export async function sendNewsletter(newsletter: Newsletter): Promise<string> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: inboundPort(),
    secure: false,
    ignoreTLS: true,
  });
  try {
    const info = await transport.sendMail({
      from: newsletter.from ?? 'Letters Weekly <news@letters.example>',
      to: newsletter.to,
      subject: newsletter.subject ?? 'Letters Weekly #1',
      ...(newsletter.html !== undefined ? { html: newsletter.html } : {}),
      text: newsletter.text ?? 'This week: three things worth reading.',
      headers: newsletter.headers ?? {},
    });
    return info.response;
  } finally {
    transport.close();
  }
}
